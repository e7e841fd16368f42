import { expect, test } from "bun:test";
import { join } from "node:path";

/**
 * mDNS is multicast: the check runs in a private network namespace (unshare -n, loopback
 * with a multicast route), so nothing leaves the machine (STACK-NOTES).
 */
test("the box advertises itself as 'Ironbox <site>' and a browser on the LAN finds it", () => {
  const bun = process.execPath;
  const script = join(import.meta.dir, "mdns-check.ts");
  const r = Bun.spawnSync(["unshare", "-n", "sh", "-c", `ip link set lo up && ip route add 224.0.0.0/4 dev lo && exec "${bun}" "${script}"`], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`mdns check failed: ${r.stderr.toString()}`);
  const found = JSON.parse(r.stdout.toString().trim().split("\n").pop()!);
  expect(found).toContainEqual({ name: "Ironbox Test Site", port: 8123 });
}, 20_000);
