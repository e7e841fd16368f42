#!/bin/sh
# Upgrades a box in place to this checkout's release, as root (README, "Installing a box").
#   sh scripts/upgrade.sh [--timeout 60] [--root DIR]
# Installs the new release beside the running one (install.sh), switches `current` to it,
# restarts the service and waits for /api/v1/health to answer with the new version. Before its
# migrations run, the new release copies the database to /var/lib/ironbox/backups, and runs
# them all in one transaction: a failed migration leaves the database as it was. If the new
# release does not come up, `current` goes back to the old release, which is restarted.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
ROOT=""
TIMEOUT=60
while [ $# -gt 0 ]; do
  case "$1" in
    --timeout) TIMEOUT=$2; shift 2 ;;
    --root) ROOT=$(cd "$2" && pwd); shift 2 ;;
    *) echo "upgrade.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
say() { echo "ironbox upgrade: $*"; }
[ "$(id -u)" = 0 ] || { echo "upgrade.sh: run it as root" >&2; exit 1; }
. "$SRC/scripts/box-lib.sh"
OPT="$ROOT/opt/ironbox"

prev=$(readlink "$OPT/current" 2>/dev/null || true)
[ -n "$prev" ] || { echo "upgrade.sh: no release installed yet: run scripts/install.sh" >&2; exit 1; }
if [ -n "$ROOT" ]; then sh "$SRC/scripts/install.sh" --root "$ROOT"; else sh "$SRC/scripts/install.sh" --no-start; fi
new=$(readlink "$OPT/current")
version=${new#releases/}
if [ "$prev" = "$new" ]; then say "already on $version"; exit 0; fi
# The way back for rollback.sh.
ln -sfn "$prev" "$OPT/previous.new" && mv -T "$OPT/previous.new" "$OPT/previous"

restart_box
if wait_healthy "$version" "$TIMEOUT"; then
  say "now on $version (was ${prev#releases/}); to go back: sh scripts/rollback.sh"
  exit 0
fi
say "$version did not answer within ${TIMEOUT}s: back to ${prev#releases/} (logs: journalctl -u ironbox)"
ln -sfn "$prev" "$OPT/current.new" && mv -T "$OPT/current.new" "$OPT/current"
restart_box
if wait_healthy "${prev#releases/}" "$TIMEOUT"; then
  say "serving ${prev#releases/} again. If $version migrated the database before failing, the copy taken before is in /var/lib/ironbox/backups (scripts/rollback.sh --restore-backup)"
else
  say "${prev#releases/} does not answer either: see journalctl -u ironbox"
fi
exit 1
