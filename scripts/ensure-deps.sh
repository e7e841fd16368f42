#!/bin/sh
# Installs what the project needs on a fresh machine of this kind (Debian, Node 20 + npm,
# root, apt; no Bun). Safe to run again: each step is skipped when already done.
#   ensure-deps.sh          JavaScript dependencies (Bun comes from npm)
#   ensure-deps.sh --test   also the apt packages the tests drive (chromium, socat, poppler, zbar,
#                           openssh-server, certutil, avahi-browse, avahi-daemon, faketime)
set -eu
cd "$(dirname "$0")/.."
BUN_VERSION=1.4.5

# Bun is a pinned devDependency; the first install bootstraps it through npx.
stamp=node_modules/.ironbox-lock
if [ ! -x node_modules/.bin/bun ] || ! cmp -s bun.lock "$stamp" 2>/dev/null; then
  echo "ironbox: installing dependencies with bun $BUN_VERSION"
  if [ -x node_modules/.bin/bun ]; then node_modules/.bin/bun install --frozen-lockfile
  else npx -y "bun@$BUN_VERSION" install --frozen-lockfile; fi
  cp bun.lock "$stamp"
fi

if [ "${1:-}" = "--test" ]; then
  missing=""
  [ -x /usr/bin/chromium ] || missing="$missing chromium"
  command -v socat >/dev/null 2>&1 || missing="$missing socat"
  command -v pdftotext >/dev/null 2>&1 || missing="$missing poppler-utils"
  command -v zbarimg >/dev/null 2>&1 || missing="$missing zbar-tools"
  command -v ip >/dev/null 2>&1 || missing="$missing iproute2"
  [ -x /usr/sbin/sshd ] || missing="$missing openssh-server"
  command -v certutil >/dev/null 2>&1 || missing="$missing libnss3-tools"
  command -v avahi-browse >/dev/null 2>&1 || missing="$missing avahi-utils"
  # The hotel's browser test dates its box's charges under libfaketime.
  ls /usr/lib/*/faketime/libfaketimeMT.so.1 >/dev/null 2>&1 || missing="$missing faketime"
  # The mDNS test runs avahi-daemon (with its own D-Bus) in a network namespace.
  [ -x /usr/sbin/avahi-daemon ] && command -v dbus-daemon >/dev/null 2>&1 || missing="$missing avahi-daemon dbus"
  if [ -n "$missing" ]; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
      echo "ironbox: the tests need:$missing (install them with apt as root)" >&2; exit 1
    fi
    echo "ironbox: installing$missing from apt"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  fi
fi
