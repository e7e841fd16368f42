import { expect, test } from "bun:test";
import { join } from "node:path";

/**
 * mDNS is multicast: the check runs in a private network namespace (unshare -n, loopback
 * with a multicast route), so nothing leaves the machine (STACK-NOTES).
 */
test("the box advertises itself as 'Ironbox <site>'; a second box of the same name becomes '(2)' and says so; a browser finds both", () => {
  const bun = process.execPath;
  const script = join(import.meta.dir, "mdns-check.ts");
  const r = Bun.spawnSync(["unshare", "-n", "sh", "-c", `ip link set lo up && ip route add 224.0.0.0/4 dev lo && exec "${bun}" "${script}"`], {
    stdout: "pipe",
    stderr: "pipe",
  });
  if (r.exitCode !== 0) throw new Error(`mdns check failed: ${r.stderr.toString()}`);
  const out = JSON.parse(r.stdout.toString().trim().split("\n").pop()!);
  expect(out.names).toEqual(["Ironbox Test Site", "Ironbox Test Site (2)"]);
  expect(out.found).toContainEqual({ name: "Ironbox Test Site", port: 8123 });
  expect(out.found).toContainEqual({ name: "Ironbox Test Site (2)", port: 8124 });
  expect(out.logs).toEqual(['mDNS: another box on this network is already "Ironbox Test Site"; this one advertises itself as "Ironbox Test Site (2)"']);
}, 20_000);
