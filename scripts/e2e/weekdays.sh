#!/bin/sh
# Runs browser specs once under each weekday and at a month's and a year's end, with the whole
# run (Playwright, the boxes, Chromium) moved in time by libfaketime (apt: faketime). Proves
# that specs reading the real clock hold on every day (issue 31: one failed every Saturday).
#   sh scripts/e2e/weekdays.sh ui/e2e/counter-delivery.e2e.ts ui/e2e/day.e2e.ts
# OFFSETS overrides the days: "+1d +2d". Not part of npm test (it runs the specs 8 times).
set -u
cd "$(dirname "$0")/../.."
command -v faketime >/dev/null || apt-get install -y faketime >/dev/null || exit 1
[ -d ui/dist ] || node_modules/.bin/bun scripts/build-ui.ts || exit 1
# Today and the next six days, and the days until the end of this month and of the year.
now=$(date -u -d "$(date -u +%Y-%m-%d)" +%s)
to_month_end=$(( ( $(date -u -d "$(date -u -d '+1 month' +%Y-%m-01) -1 day" +%s) - now ) / 86400 ))
to_year_end=$(( ( $(date -u -d "$(date -u +%Y)-12-31" +%s) - now ) / 86400 ))
offsets=${OFFSETS:-"+0d +1d +2d +3d +4d +5d +6d +${to_month_end}d +${to_year_end}d"}
status=0
for o in $offsets; do
  day=$(date -u -d "$(echo "$o" | tr -d +d) days" '+%a %d/%m/%Y')
  printf '== %s (%s): ' "$day" "$o"
  if faketime -f "$o" node node_modules/@playwright/test/cli.js test -c playwright.config.ts --reporter=line "$@" >"test-results/weekday-$(echo "$o" | tr -d +).log" 2>&1; then
    echo passed
  else
    echo FAILED; status=1; tail -40 "test-results/weekday-$(echo "$o" | tr -d +).log"
  fi
done
exit $status
