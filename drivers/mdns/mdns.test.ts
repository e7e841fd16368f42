import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "ironbox-mdns-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * mDNS is multicast: the check runs in a private network and mount namespace (unshare -n -m),
 * so nothing leaves the machine (STACK-NOTES). Two veth ends inside it stand for the shop
 * LAN: the box's addresses are the veth addresses (loopback is never advertised), and
 * avahi-daemon, with a private D-Bus, listens on the other end so avahi-browse and
 * avahi-resolve can check what the box answers. Both daemons are stopped by their pids.
 */
function inNamespace(script: string): string {
  writeFileSync(
    join(dir, "bus.conf"),
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>system</type><listen>unix:path=${dir}/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/></policy></busconfig>
`,
  );
  writeFileSync(
    join(dir, "avahi.conf"),
    "[server]\nhost-name=lan-peer\nuse-ipv4=yes\nuse-ipv6=no\nallow-interfaces=veth1\nenable-dbus=yes\n[publish]\npublish-workstation=no\npublish-hinfo=no\n",
  );
  const bun = process.execPath;
  return `set -e
ip link set lo up
ip link add veth0 type veth peer name veth1
ip addr add 10.77.0.1/24 dev veth0
ip addr add 10.77.0.2/24 dev veth1
ip link set veth0 up
ip link set veth1 up
ip route add 224.0.0.0/4 dev veth0
# Both ends are this host's addresses: let each accept packets from the other.
for c in all veth0 veth1; do sysctl -qw net.ipv4.conf.$c.accept_local=1 net.ipv4.conf.$c.rp_filter=0; done
pids=""
trap 'kill $pids 2>/dev/null || true' EXIT
if command -v avahi-daemon >/dev/null && command -v dbus-daemon >/dev/null; then
  mkdir -p /run/avahi-daemon && mount -t tmpfs tmpfs /run/avahi-daemon
  dbus-daemon --config-file=${dir}/bus.conf --nofork --nopidfile & pids="$pids $!"
  export DBUS_SYSTEM_BUS_ADDRESS=unix:path=${dir}/bus
  for i in $(seq 50); do [ -S ${dir}/bus ] && break; sleep 0.1; done
  avahi-daemon --no-drop-root --no-chroot --no-rlimits -f ${dir}/avahi.conf >/dev/null 2>&1 & pids="$pids $!"
  for i in $(seq 50); do avahi-resolve -a 10.77.0.2 >/dev/null 2>&1 && break; sleep 0.1; done
fi
"${bun}" "${script}"`;
}

test("the box advertises _http._tcp and _https._tcp as 'Ironbox <site>' on ironbox-<site>.local; a second box of the same name becomes '(2)' and says so; bonjour and avahi find it", () => {
  const r = Bun.spawnSync(["unshare", "-n", "-m", "sh", "-c", inNamespace(join(import.meta.dir, "mdns-check.ts"))], {
    stdout: "pipe",
    stderr: "pipe",
    timeout: 40_000,
  });
  if (r.exitCode !== 0) throw new Error(`mdns check failed: ${r.stderr.toString()}`);
  const out = JSON.parse(r.stdout.toString().trim().split("\n").pop()!);
  expect(out.names).toEqual(["Ironbox Test Site", "Ironbox Test Site (2)"]);
  expect(out.found).toContainEqual({ name: "Ironbox Test Site", port: 8123, host: "ironbox-test-site.local" });
  expect(out.found).toContainEqual({ name: "Ironbox Test Site (2)", port: 8124, host: "ironbox-test-site-2.local" });
  // Only the first serves HTTPS.
  expect(out.secure).toEqual([{ name: "Ironbox Test Site", port: 8443, host: "ironbox-test-site.local" }]);
  expect(out.logs).toEqual([
    'mDNS: another box on this network is already "Ironbox Test Site"; this one advertises itself as "Ironbox Test Site (2)" (ironbox-test-site-2.local)',
  ]);
  // avahi, an independent client: the service resolves to the host name, one of the box's addresses and the HTTPS port,
  // and the host name's A query is answered.
  expect(out.avahi).not.toBeNull();
  const line = out.avahi.browse.find((l: string) => l.includes("Ironbox\\032Test\\032Site;"));
  expect(line).toMatch(/^=;veth1;IPv4;Ironbox\\032Test\\032Site;_https\._tcp;local;ironbox-test-site\.local;10\.77\.0\.[12];8443;.*"path=\/"/);
  expect(out.avahi.resolve).toMatch(/^ironbox-test-site\.local\t10\.77\.0\.[12]$/);
}, 45_000);
