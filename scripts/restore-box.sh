#!/bin/sh
# Restores this box's database from its replica at HQ, checks it, and (with --start) starts
# the appliance on it. See scripts/restore-box.ts and README ("Restoring a box").
set -eu
cd "$(dirname "$0")/.."
BUN=node_modules/@oven/bun-linux-x64/bin/bun
[ -x "$BUN" ] || BUN=node_modules/.bin/bun
exec "$BUN" scripts/restore-box.ts "$@"
