#!/bin/sh
# Installs (or re-installs) the Ironbox appliance on a Debian 12 mini-PC, as root. Safe to run
# again: each step checks first and changes only what differs. README: "Installing a box".
#
#   sh scripts/install.sh                 install this checkout's release, enable and start the service
#   sh scripts/install.sh --root DIR      the same into DIR (a test or image root, may be empty): no
#                                         service is started, users go into DIR/etc/passwd (useradd
#                                         --prefix; the account files are made when missing)
#   sh scripts/install.sh --no-start      install, but leave the service as it is
#   sh scripts/install.sh --reinstall     rebuild the release even if this version is installed
#
# What it does: the service user `ironbox` (groups lp, dialout, input, plugdev for printers and
# guns), the data folder /var/lib/ironbox (ironbox, 0750), the release in
# /opt/ironbox/releases/<version> (dependencies with Bun, the UI built) and the `current` link,
# /etc/ironbox/ironbox.env (kept once written), the udev rules and the systemd unit.
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
ROOT=""
START=1
REINSTALL=0
while [ $# -gt 0 ]; do
  case "$1" in
    --root) ROOT=$(cd "$2" && pwd); START=0; shift 2 ;;
    --no-start) START=0; shift ;;
    --reinstall) REINSTALL=1; shift ;;
    *) echo "install.sh: unknown option $1 (see the head of this script)" >&2; exit 2 ;;
  esac
done

say() { echo "ironbox install: $*"; }
[ "$(id -u)" = 0 ] || { echo "install.sh: run it as root (sudo sh scripts/install.sh)" >&2; exit 1; }
if [ -z "$ROOT" ] && ! grep -qs '^VERSION_ID="12"' /etc/os-release; then
  say "warning: made for Debian 12; this is $(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-unknown}")"
fi

USER_NAME=ironbox
DATA=/var/lib/ironbox
OPT=/opt/ironbox
VERSION=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$SRC/package.json" | head -n 1)
[ -n "$VERSION" ] || { echo "install.sh: no version in $SRC/package.json" >&2; exit 1; }
# useradd/groupadd/usermod write $ROOT/etc with --prefix (no chroot needed).
PREFIX=""
[ -n "$ROOT" ] && PREFIX="--prefix $ROOT"

# 1. The service user and its device groups. An empty root (an image being built) gets the
# account files useradd --prefix needs (each with root's own line), made here, never overwritten.
if [ -n "$ROOT" ]; then
  mkdir -p "$ROOT/etc"
  for f in passwd group shadow gshadow; do
    [ ! -L "$ROOT/etc/$f" ] || { echo "install.sh: $ROOT/etc/$f is a symbolic link: refused" >&2; exit 1; }
    if [ ! -e "$ROOT/etc/$f" ]; then
      case $f in
        passwd) line="root:x:0:0:root:/root:/bin/sh" ;;
        group) line="root:x:0:" ;;
        shadow) line="root:*:1::::::" ;;
        gshadow) line="root:*::" ;;
      esac
      (umask 077 && echo "$line" >"$ROOT/etc/$f")
      case $f in passwd | group) chmod 0644 "$ROOT/etc/$f" ;; *) chmod 0640 "$ROOT/etc/$f" ;; esac
      say "made /etc/$f in $ROOT"
    fi
  done
fi
has_group() { grep -q "^$1:" "$ROOT/etc/group"; }
in_group() { grep -q "^$1:[^:]*:[^:]*:\(.*,\)\{0,1\}$USER_NAME\(,.*\)\{0,1\}$" "$ROOT/etc/group"; }
if ! has_group "$USER_NAME"; then groupadd $PREFIX --system "$USER_NAME"; say "group $USER_NAME created"; fi
if ! grep -q "^$USER_NAME:" "$ROOT/etc/passwd"; then
  useradd $PREFIX --system --gid "$USER_NAME" --home-dir "$DATA" --no-create-home --shell /usr/sbin/nologin \
    --comment "Ironbox appliance" "$USER_NAME"
  say "user $USER_NAME created"
fi
for g in lp dialout input plugdev; do
  if ! has_group "$g"; then groupadd $PREFIX --system "$g"; say "group $g created"; fi
  if ! in_group "$g"; then usermod $PREFIX --append --groups "$g" "$USER_NAME"; say "$USER_NAME added to $g"; fi
done
uid=$(grep "^$USER_NAME:" "$ROOT/etc/passwd" | cut -d: -f3)
gid=$(grep "^$USER_NAME:" "$ROOT/etc/group" | cut -d: -f3)

# 2. The data folder: the service's alone (the database, images, backups, certificates). The
# service user owns it and can plant links in it, so root never follows one there: the folder
# itself must not be a link (chown -h), and what is inside is tightened by the service user
# itself (files from before UMask=0077 were 0644; find -type f/-type d never follows a link).
mkdir -p "$ROOT$DATA"
[ ! -L "$ROOT$DATA" ] || { echo "install.sh: $ROOT$DATA is a symbolic link: refused" >&2; exit 1; }
chown -h "$uid:$gid" "$ROOT$DATA"
chmod 0750 "$ROOT$DATA"
setpriv --reuid="$uid" --regid="$gid" --clear-groups -- \
  find "$ROOT$DATA" -mindepth 1 -xdev \( -type f -o -type d \) -perm /0077 -exec chmod go-rwx {} + 2>/dev/null || true

# 3. Settings: written once from the template, never overwritten (the owner edits it).
mkdir -p "$ROOT/etc/ironbox"
if [ ! -e "$ROOT/etc/ironbox/ironbox.env" ]; then
  cat >"$ROOT/etc/ironbox/ironbox.env" <<'ENV'
# Ironbox settings (README, "Configuration"). Restart after a change: systemctl restart ironbox
# IRONBOX_PORT=8080
# IRONBOX_SITE_NAME=birkirkara
# IRONBOX_UPLOAD_QUOTA_MB=500
ENV
  say "wrote /etc/ironbox/ironbox.env (edit it, then restart the service)"
fi
chown -h "root:$gid" "$ROOT/etc/ironbox/ironbox.env"
chmod 0640 "$ROOT/etc/ironbox/ironbox.env"

# 4. The release, beside the earlier ones; `current` points at the one that runs.
RELEASE="$OPT/releases/$VERSION"
CHANGED=0
mkdir -p "$ROOT$OPT/releases"
chmod 0755 "$ROOT$OPT" "$ROOT$OPT/releases"
if [ "$REINSTALL" = 1 ] || [ ! -e "$ROOT$RELEASE/.installed" ]; then
  tmp="$ROOT$RELEASE.partial"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  # The source without what is built, installed or local to this checkout.
  tar -C "$SRC" --exclude=./.git --exclude=./node_modules --exclude=./data --exclude=./.e2e-data \
    --exclude=./test-results --exclude=./playwright-report --exclude=./ui/dist --exclude=./tmp -cf - . | tar -C "$tmp" -xf -
  # Bun from this checkout when it has one (no network needed), else ensure-deps.sh fetches it.
  if [ -x "$SRC/node_modules/.bin/bun" ]; then (cd "$tmp" && "$SRC/node_modules/.bin/bun" install --frozen-lockfile >/dev/null); fi
  (cd "$tmp" && sh scripts/ensure-deps.sh && node_modules/.bin/bun scripts/build-ui.ts >/dev/null)
  chown -R root:root "$tmp"
  chmod -R u+rwX,go+rX,go-w "$tmp"
  date -u +%Y-%m-%dT%H:%M:%SZ >"$tmp/.installed"
  rm -rf "$ROOT$RELEASE"
  mv "$tmp" "$ROOT$RELEASE"
  say "release $VERSION installed in $RELEASE"
fi
if [ "$(readlink "$ROOT$OPT/current" 2>/dev/null || true)" != "releases/$VERSION" ]; then
  ln -sfn "releases/$VERSION" "$ROOT$OPT/current.new"
  mv -T "$ROOT$OPT/current.new" "$ROOT$OPT/current"
  say "current -> releases/$VERSION"
  CHANGED=1
fi

# 5. udev rules (printers and guns usable by the service user) and the systemd unit.
INSTALLED=0
install_file() { # source, destination, mode: copies only when different
  if ! cmp -s "$1" "$ROOT$2"; then
    mkdir -p "$(dirname "$ROOT$2")"
    install -m "$3" "$1" "$ROOT$2"
    say "installed $2"
    INSTALLED=1
  fi
}
for rules in "$SRC"/systemd/udev/*.rules; do install_file "$rules" "/etc/udev/rules.d/$(basename "$rules")" 0644; done
UDEV_CHANGED=$INSTALLED
INSTALLED=0
install_file "$SRC/systemd/ironbox.service" /etc/systemd/system/ironbox.service 0644
[ "$INSTALLED" = 1 ] && CHANGED=1

if [ -n "$ROOT" ]; then
  say "done in $ROOT (release $VERSION; nothing started)"
  exit 0
fi
if [ "$UDEV_CHANGED" = 1 ] && command -v udevadm >/dev/null 2>&1 && [ -S /run/udev/control ]; then
  udevadm control --reload && udevadm trigger --subsystem-match=usbmisc --subsystem-match=tty --subsystem-match=hidraw --subsystem-match=input || true
fi

# 6. The service: enabled and (re)started where systemd runs the machine.
if [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  systemctl enable --quiet ironbox.service
  if [ "$START" = 1 ]; then
    if [ "$CHANGED" = 1 ] || ! systemctl is-active --quiet ironbox.service; then systemctl restart ironbox.service; fi
    say "ironbox.service is $(systemctl is-active ironbox.service); logs: journalctl -u ironbox -f"
  fi
else
  say "systemd is not running this machine (PID 1 is $(cat /proc/1/comm 2>/dev/null || echo unknown)): the service was not enabled or started."
  say "start it by hand: cd $OPT/current && runuser -u $USER_NAME -- env IRONBOX_DATA_DIR=$DATA node_modules/.bin/bun appliance/main.ts"
fi
say "release $VERSION ready"
