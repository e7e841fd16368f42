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

echo "== bun test"
# --timeout on the command line: Bun ignores bunfig's [test] timeout for hooks, which then get
# 5 s, and a beforeAll that boots a demo box took 6-7 s on a loaded 2-core machine.
$BUN test --timeout 30000 2>&1 | tee test-results/bun.log
bp=$(grep -E '^ *[0-9]+ pass$' test-results/bun.log | tail -1 | tr -dc 0-9)
bf=$(grep -E '^ *[0-9]+ fail$' test-results/bun.log | tail -1 | tr -dc 0-9)
if [ -z "$bp" ]; then echo "bun test printed no summary" >&2; bf=$((${bf:-0} + 1)); fi
passed=$((passed + ${bp:-0})); failed=$((failed + ${bf:-0}))
[ "${bf:-0}" = 0 ] && [ -n "$bp" ] || status=1

echo "== browser tests"
$BUN scripts/build-ui.ts || status=1
rm -f test-results/e2e.json
node node_modules/@playwright/test/cli.js test -c playwright.config.ts || status=1
if [ -f test-results/e2e.json ]; then
  counts=$(node -e 'const s=require("./test-results/e2e.json").stats; console.log((s.expected+s.flaky)+" "+s.unexpected)')
  passed=$((passed + ${counts% *})); failed=$((failed + ${counts#* }))
else
  echo "playwright wrote no report" >&2; failed=$((failed + 1)); status=1
fi

echo "$passed passed, $failed failed"
exit $status
