/**
 * Run inside a private network namespace by mdns.test.ts: a box publishes `_http._tcp` and
 * `_https._tcp`; a second box with the same site name renames itself; bonjour-service finds
 * both, and avahi (an independent implementation, when the test could start its daemon)
 * browses `_https._tcp` and resolves the box's host name.
 */
import { advertise, browse } from "./advertise";

/** A command's output; async, since this process answers the mDNS queries meanwhile. */
async function run(cmd: string[]): Promise<string> {
  const p = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => p.kill(), 10_000);
  const out = await new Response(p.stdout).text();
  await p.exited;
  clearTimeout(timer);
  return out;
}

const logs: string[] = [];
const first = advertise("Test Site", { http: 8123, https: 8443 }, (m) => logs.push(m));
const firstName = await first.name;
const second = advertise("Test Site", { http: 8124, https: null }, (m) => logs.push(m));
const secondName = await second.name;
const [found, secure] = await Promise.all([browse(1500), browse(1500, "https")]);
const avahi = process.env.DBUS_SYSTEM_BUS_ADDRESS
  ? {
      browse: (await run(["avahi-browse", "-rptk", "_https._tcp"])).split("\n").filter((l) => l.startsWith("=")),
      resolve: (await run(["avahi-resolve", "-4", "-n", "ironbox-test-site.local"])).trim(),
    }
  : null;
await second.stop();
await first.stop();
console.log(JSON.stringify({ names: [firstName, secondName], found, secure, avahi, logs }));
process.exit(0);
