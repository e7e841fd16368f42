#!/bin/sh
# Goes back to the previous release, as root (README, "Installing a box").
#   sh scripts/rollback.sh                          the release before the last upgrade
#   sh scripts/rollback.sh --to 1.0.6               a given release in /opt/ironbox/releases
#   sh scripts/rollback.sh --restore-backup [FILE]  also put back the database copy taken before
#                                                   the upgrade migrated it (the newest one, or FILE):
#                                                   what was written since is set aside, not kept
#   --root DIR: a box installed into DIR (tests)
# The database as it was is moved to /var/lib/ironbox/backups/replaced-<time>/, never deleted.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
ROOT=""
TO=""
RESTORE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --to) TO="releases/$2"; shift 2 ;;
    --root) ROOT=$(cd "$2" && pwd); shift 2 ;;
    --restore-backup)
      RESTORE=newest
      if [ $# -gt 1 ] && [ "${2#--}" = "$2" ]; then RESTORE=$2; shift; fi
      shift ;;
    *) echo "rollback.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
say() { echo "ironbox rollback: $*"; }
[ "$(id -u)" = 0 ] || { echo "rollback.sh: run it as root" >&2; exit 1; }
. "$SRC/scripts/box-lib.sh"
OPT="$ROOT/opt/ironbox"
DATA="$ROOT/var/lib/ironbox"

[ -n "$TO" ] || TO=$(readlink "$OPT/previous" 2>/dev/null || true)
[ -n "$TO" ] && [ -e "$OPT/$TO/.installed" ] || { echo "rollback.sh: no release to go back to (ls $OPT/releases; use --to VERSION)" >&2; exit 1; }
cur=$(readlink "$OPT/current")

if [ -n "$RESTORE" ]; then
  [ "$RESTORE" = newest ] && RESTORE=$(ls -1t "$DATA"/backups/ironbox-*.db 2>/dev/null | head -n 1)
  [ -f "$RESTORE" ] || { echo "rollback.sh: no database copy to restore (in $DATA/backups)" >&2; exit 1; }
  if [ -z "$ROOT" ] && [ -d /run/systemd/system ]; then systemctl stop ironbox.service; fi
  aside="$DATA/backups/replaced-$(date -u +%Y%m%dT%H%M%SZ)"
  mkdir -p "$aside"
  for f in ironbox.db ironbox.db-wal ironbox.db-shm; do [ -e "$DATA/$f" ] && mv "$DATA/$f" "$aside/"; done
  cp "$RESTORE" "$DATA/ironbox.db"
  chown --reference="$DATA" "$DATA/ironbox.db" "$aside"
  say "database restored from $RESTORE (the replaced one is in $aside)"
fi
ln -sfn "$TO" "$OPT/current.new" && mv -T "$OPT/current.new" "$OPT/current"
ln -sfn "$cur" "$OPT/previous.new" && mv -T "$OPT/previous.new" "$OPT/previous"
say "current -> $TO (was $cur)"
restart_box
if wait_healthy "${TO#releases/}" 60; then say "serving ${TO#releases/}"; else say "${TO#releases/} does not answer: journalctl -u ironbox"; exit 1; fi
