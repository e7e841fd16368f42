# Shared by upgrade.sh and rollback.sh (sourced): restart the service, wait for its health.
# ROOT (optional) is the root the box is installed in (tests); the port comes from
# $ROOT/etc/ironbox/ironbox.env (default 8080). IRONBOX_RESTART_CMD, when set, restarts the
# appliance instead of systemctl (a machine without systemd, and the upgrade test).
box_port() {
  p=$(sed -n 's/^[[:space:]]*IRONBOX_PORT=["]*\([0-9]*\).*/\1/p' "${ROOT:-}/etc/ironbox/ironbox.env" 2>/dev/null | tail -n 1)
  echo "${p:-8080}"
}
restart_box() {
  if [ -n "${IRONBOX_RESTART_CMD:-}" ]; then sh -c "$IRONBOX_RESTART_CMD"
  elif [ -z "${ROOT:-}" ] && [ -d /run/systemd/system ]; then systemctl restart ironbox.service
  else echo "ironbox: systemd is not running this machine: restart the appliance by hand" >&2; fi
}
# wait_healthy VERSION SECONDS: true once /api/v1/health answers with that version.
wait_healthy() {
  url="http://127.0.0.1:$(box_port)/api/v1/health"
  i=0
  while [ "$i" -lt "$2" ]; do
    body=$("${ROOT:-}/opt/ironbox/current/node_modules/.bin/bun" -e "fetch('$url').then(r => r.text()).then(t => console.log(t), () => {})" 2>/dev/null || true)
    case "$body" in *"\"version\":\"$1\""*) return 0 ;; esac
    sleep 1
    i=$((i + 1))
  done
  return 1
}
