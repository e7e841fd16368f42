#!/bin/sh
# Goes back to the previous release, as root (README, "Installing a box").
#   sh scripts/rollback.sh                          the release before the last upgrade
#   sh scripts/rollback.sh --to 1.0.6               a given release in /opt/ironbox/releases
#   sh scripts/rollback.sh --restore-backup [FILE]  also put back the database copy taken before
#                                                   the upgrade migrated it (the newest one, or FILE):
#                                                   what was written since is set aside, not kept
#   --root DIR: a box installed into DIR (tests)
# The database as it was is moved to /var/lib/ironbox/backups/replaced-<time>.<random>/, never
# deleted. Everything inside the data folder is done as the service user (it owns that folder).
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
  # The data folder is the service user's: it can plant links in it (backups/replaced-<time> ->
  # /etc, a newest ironbox-*.db -> a root-only file). So nothing in it is done as root: the copy,
  # the moves and the folder for the replaced files are made by the service user itself
  # (setpriv), which can reach only what it could reach anyway, and links are refused outright.
  [ -d "$DATA" ] && [ ! -L "$DATA" ] || { echo "rollback.sh: $DATA is not a folder" >&2; exit 1; }
  [ ! -L "$DATA/backups" ] || { echo "rollback.sh: $DATA/backups is a symbolic link: refused (the backups are the files in that folder)" >&2; exit 1; }
  owner=$(stat -c %u "$DATA"); group=$(stat -c %g "$DATA")
  as_service() { setpriv --reuid="$owner" --regid="$group" --clear-groups -- "$@"; }
  if [ "$RESTORE" = newest ]; then
    # Regular files only (find -type f does not follow links), the newest by modification time.
    RESTORE=$(as_service find "$DATA/backups" -maxdepth 1 -type f -name 'ironbox-*.db' -printf '%T@ %p\n' 2>/dev/null | sort -rn | head -n 1 | cut -d' ' -f2-)
    [ -n "$RESTORE" ] || { echo "rollback.sh: no database copy to restore (in $DATA/backups)" >&2; exit 1; }
  fi
  [ ! -L "$RESTORE" ] || { echo "rollback.sh: $RESTORE is a symbolic link: refused" >&2; exit 1; }
  [ -f "$RESTORE" ] || { echo "rollback.sh: no database copy $RESTORE" >&2; exit 1; }
  if [ -z "$ROOT" ] && [ -d /run/systemd/system ]; then systemctl stop ironbox.service; fi
  # mktemp -d: a new folder of its own (a planted replaced-<time> is never reused).
  aside=$(as_service mktemp -d "$DATA/backups/replaced-$(date -u +%Y%m%dT%H%M%SZ).XXXXXX")
  as_service sh -eu -c '
    data=$1 src=$2 aside=$3
    # The copy is read by the service user: a file it cannot read is not restored.
    rm -f -- "$data/.restoring.db"
    cat -- "$src" >"$data/.restoring.db"
    for f in ironbox.db ironbox.db-wal ironbox.db-shm; do
      if [ -e "$data/$f" ] || [ -L "$data/$f" ]; then mv -- "$data/$f" "$aside/"; fi
    done
    mv -- "$data/.restoring.db" "$data/ironbox.db"
  ' sh "$DATA" "$RESTORE" "$aside" || { echo "rollback.sh: the service user could not restore $RESTORE (see above)" >&2; exit 1; }
  say "database restored from $RESTORE (the replaced one is in $aside)"
fi
ln -sfn "$TO" "$OPT/current.new" && mv -T "$OPT/current.new" "$OPT/current"
ln -sfn "$cur" "$OPT/previous.new" && mv -T "$OPT/previous.new" "$OPT/previous"
say "current -> $TO (was $cur)"
restart_box
if wait_healthy "${TO#releases/}" 60; then say "serving ${TO#releases/}"; else say "${TO#releases/} does not answer: journalctl -u ironbox"; exit 1; fi
