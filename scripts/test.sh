#!/bin/sh
# npm test: every test there is: npm run check (typecheck, lint, schema against migrations;
# one step), unit and API tests (bun test on real libSQL files), then the browser tests
# (Playwright driving Debian's Chromium against the built appliance). Ends with the line
# "N passed, N failed" summed over all runners.
set -u
cd "$(dirname "$0")/.."
sh scripts/ensure-deps.sh --test || exit 1
BUN=node_modules/.bin/bun
# Two runs side by side (issue 33) share nothing: each writes its logs, its UI build and its
# browser tests' data under a folder of its own (test-results/latest points at the newest),
# and its browser boxes listen on a block of ports it has claimed (scripts/e2e/ports.ts)
# unless E2E_PORT says where.
RUN=test-results/run-$(date -u +%Y%m%dT%H%M%SZ)-$$
mkdir -p "$RUN"
ln -sfn "$(basename "$RUN")" test-results/latest
# Runs more than a day old are removed.
find test-results -maxdepth 1 -name 'run-*' -mmin +1440 -exec rm -rf {} + 2>/dev/null
claimed=""
# The ports of a block (E2E_SPAN in ui/e2e/pages/env.ts).
span=$(sed -n 's/^export const E2E_SPAN = \([0-9]*\);$/\1/p' ui/e2e/pages/env.ts)
# At the end: a passing run's browser-test data goes (its boxes' data dirs are named by port),
# then its ports are given back.
release_ports() {
  for p in $claimed; do
    if [ "$status" = 0 ]; then
      q=$p
      while [ $q -lt $((p + span)) ]; do rm -rf .e2e-data/*-$q; q=$((q + 1)); done
    fi
    $BUN scripts/e2e/ports.ts release "$p"
  done
}
trap release_ports EXIT
trap 'exit 130' INT TERM
passed=0; failed=0; status=0

echo "== check (typecheck, lint, migrations)"
if npm run --silent check; then passed=$((passed + 1)); else failed=$((failed + 1)); status=1; fi

# One bun test run: its output to $RUN/<log>, its pass and fail counts added up.
bun_run() {
  log=$1; shift
  $BUN test --timeout 30000 "$@" 2>&1 | tee "$RUN/$log"
  bp=$(grep -E '^ *[0-9]+ pass$' "$RUN/$log" | tail -1 | tr -dc 0-9)
  bf=$(grep -E '^ *[0-9]+ fail$' "$RUN/$log" | tail -1 | tr -dc 0-9)
  if [ -z "$bp" ]; then echo "bun test printed no summary ($log)" >&2; bf=$((${bf:-0} + 1)); fi
  passed=$((passed + ${bp:-0})); failed=$((failed + ${bf:-0}))
  [ "${bf:-0}" = 0 ] && [ -n "$bp" ] || status=1
}

echo "== bun test"
# --timeout on the command line: Bun ignores bunfig's [test] timeout for hooks, which then get
# 5 s, and a beforeAll that boots a demo box took 6-7 s on a loaded 2-core machine.
# The unit and API tests run three files at a time (BUN_PARALLEL; most of their time is spent
# waiting on disks, child processes and timers: on 2 cores, 191 s at two, 147 s at three, 128 s
# at four, the CPU never full; three leaves room for a second run beside). The fault scripts
# then run alone: they kill, freeze and fill real boxes, and their loss bars are in seconds of
# writes.
files=$(find appliance db drivers scripts systemd ui -name '*.test.ts' -not -path 'scripts/faults/*' | sort | sed 's|^|./|')
# shellcheck disable=SC2086 # one path per word
bun_run bun.log --parallel=${BUN_PARALLEL:-3} $files
bun_run bun-faults.log ./scripts/faults/

echo "== browser tests"
# The boxes serve this run's own build (IRONBOX_UI_DIR), not ui/dist.
IRONBOX_UI_DIR=$(pwd)/$RUN/ui
export IRONBOX_UI_DIR
$BUN scripts/build-ui.ts --out "$RUN/ui" || status=1
# E2E_SHARDS=N runs the specs in N shards at once, each with its own boxes on its own block of
# ports; one is the default. Each shard's output is printed whole after it, not interleaved.
shards=${E2E_SHARDS:-1}
i=1
while [ $i -le $shards ]; do
  if [ -n "${E2E_PORT:-}" ]; then
    port=$((E2E_PORT + (i - 1) * 100))
  else
    port=$($BUN scripts/e2e/ports.ts claim $$) || { echo "no free ports for the browser tests" >&2; exit 1; }
    claimed="$claimed $port"
  fi
  echo "-- shard $i of $shards: ports from $port"
  (
    E2E_PORT=$port E2E_JSON=$RUN/e2e-$i.json E2E_RESULTS=$RUN \
      node node_modules/@playwright/test/cli.js test -c playwright.config.ts --shard=$i/$shards >"$RUN/e2e-$i.log" 2>&1
    echo $? >"$RUN/e2e-$i.rc"
  ) &
  i=$((i + 1))
done
wait
i=1
while [ $i -le $shards ]; do
  echo "-- browser tests, shard $i of $shards"
  cat "$RUN/e2e-$i.log"
  rc=$(cat "$RUN/e2e-$i.rc" 2>/dev/null || echo 1)
  if [ -f "$RUN/e2e-$i.json" ]; then
    counts=$(node -e 'const s=require(require("path").resolve(process.argv[1])).stats; console.log((s.expected+s.flaky)+" "+s.unexpected)' "$RUN/e2e-$i.json")
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
