#!/bin/sh
# Times an import over HTTP (issue 26): a box serves a reference data dir (built by
# scripts/gen-reference.ts) on loopback as the old system; an empty box's database takes it.
#   sh scripts/bench/import.sh <source data dir> <port> [target data dir]
# Prints the import's summary and /usr/bin/time's wall time and peak RSS of the importer.
set -eu
src=$1
port=$2
dst=${3:-$(mktemp -d)}
bun=node_modules/.bin/bun

IRONBOX_MDNS=0 IRONBOX_HTTPS=0 IRONBOX_PORT=$port IRONBOX_DATA_DIR=$src $bun appliance/main.ts >"$dst.source.log" 2>&1 &
srcpid=$!
trap 'kill $srcpid 2>/dev/null || true' EXIT INT TERM

# The target: a fresh box whose first run made an HQ admin (the import acts as it).
rm -rf "$dst" && mkdir -p "$dst"
IRONBOX_MDNS=0 IRONBOX_HTTPS=0 IRONBOX_PORT=$((port + 1)) IRONBOX_DATA_DIR=$dst IRONBOX_ADMIN_USER=admin IRONBOX_ADMIN_PASSWORD=admin-pass-1 \
  IRONBOX_ADMIN_PIN=9999 $bun appliance/main.ts >"$dst.target.log" 2>&1 &
dstpid=$!
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$((port + 1))/api/v1/health" >/dev/null 2>&1 && curl -sf "http://127.0.0.1:$port/api/v1/health" >/dev/null 2>&1 && break
  sleep 1
done
kill $dstpid
wait $dstpid 2>/dev/null || true

IRONBOX_DATA_DIR=$dst /usr/bin/time -v $bun ${BUN_FLAGS:-} scripts/import.ts --from "http://127.0.0.1:$port" --user hq --password hq-demo-2026 --pin 1111 \
  >"$dst.import.log" 2>"$dst.time.log"
grep -E "^(Import run|kind|[a-z_]+ +[0-9]|Money)" "$dst.import.log"
grep -E "Elapsed|Maximum resident|Percent of CPU" "$dst.time.log"
