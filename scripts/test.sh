#!/bin/sh
# npm test: every test there is: npm run check (typecheck, lint, schema against migrations;
# one step), unit and API tests (bun test on real libSQL files), then the browser tests
# (Playwright driving Debian's Chromium against the built appliance). Ends with the line
# "N passed, N failed" summed over all runners.
set -u
cd "$(dirname "$0")/.."
sh scripts/ensure-deps.sh --test || exit 1
BUN=node_modules/.bin/bun
mkdir -p test-results
passed=0; failed=0; status=0

echo "== check (typecheck, lint, migrations)"
if npm run --silent check; then passed=$((passed + 1)); else failed=$((failed + 1)); status=1; fi

# One bun test run: its output to test-results/<log>, its pass and fail counts added up.
bun_run() {
  log=$1; shift
  $BUN test --timeout 30000 "$@" 2>&1 | tee test-results/$log
  bp=$(grep -E '^ *[0-9]+ pass$' test-results/$log | tail -1 | tr -dc 0-9)
  bf=$(grep -E '^ *[0-9]+ fail$' test-results/$log | tail -1 | tr -dc 0-9)
  if [ -z "$bp" ]; then echo "bun test printed no summary ($log)" >&2; bf=$((${bf:-0} + 1)); fi
  passed=$((passed + ${bp:-0})); failed=$((failed + ${bf:-0}))
  [ "${bf:-0}" = 0 ] && [ -n "$bp" ] || status=1
}

echo "== bun test"
# --timeout on the command line: Bun ignores bunfig's [test] timeout for hooks, which then get
# 5 s, and a beforeAll that boots a demo box took 6-7 s on a loaded 2-core machine.
# The unit and API tests run two files at a time (BUN_PARALLEL; most of their time is spent
# waiting on disks, child processes and timers); the fault scripts then run alone, since their
# bars include the counter's latency while something breaks.
files=$(find appliance db drivers scripts systemd ui -name '*.test.ts' -not -path 'scripts/faults/*' | sort | sed 's|^|./|')
# shellcheck disable=SC2086 # one path per word
bun_run bun.log --parallel=${BUN_PARALLEL:-2} $files
bun_run bun-faults.log ./scripts/faults/

echo "== browser tests"
$BUN scripts/build-ui.ts || status=1
# E2E_SHARDS=N runs the specs in N shards at once, each with its own boxes (E2E_PORT moves
# every port and data dir); one is the default. Each shard's output is printed whole
# after it, not interleaved.
shards=${E2E_SHARDS:-1}
i=1
while [ $i -le $shards ]; do
  rm -f test-results/e2e-$i.json test-results/e2e-$i.log test-results/e2e-$i.rc
  (
    E2E_PORT=$((${E2E_PORT:-8099} + (i - 1) * 100)) E2E_JSON=test-results/e2e-$i.json \
      node node_modules/@playwright/test/cli.js test -c playwright.config.ts --shard=$i/$shards >test-results/e2e-$i.log 2>&1
    echo $? >test-results/e2e-$i.rc
  ) &
  i=$((i + 1))
done
wait
i=1
while [ $i -le $shards ]; do
  echo "-- browser tests, shard $i of $shards"
  cat test-results/e2e-$i.log
  rc=$(cat test-results/e2e-$i.rc 2>/dev/null || echo 1)
  if [ -f test-results/e2e-$i.json ]; then
    counts=$(node -e 'const s=require("./"+process.argv[1]).stats; console.log((s.expected+s.flaky)+" "+s.unexpected)' test-results/e2e-$i.json)
    passed=$((passed + ${counts% *})); failed=$((failed + ${counts#* }))
    # A shard that failed outside any test (a box that never started) still counts as a failure.
    if [ "$rc" != 0 ] && [ "${counts#* }" = 0 ]; then failed=$((failed + 1)); fi
    [ "$rc" = 0 ] && [ "${counts#* }" = 0 ] || status=1
  else
    echo "playwright wrote no report for shard $i" >&2; failed=$((failed + 1)); status=1
  fi
  i=$((i + 1))
done

echo "$passed passed, $failed failed"
exit $status
