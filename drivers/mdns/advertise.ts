import { Bonjour } from "bonjour-service";
import { stableHostName } from "../../appliance/domain/lanNames";

/** How long the box listens for other boxes' names before it picks its own. */
const LISTEN_MS = 1200;
/** bonjour-service probes a name for about a second before it announces it. */
const CLAIM_MS = 5000;

/**
 * Advertises the box on the shop LAN so tablets find it by name: `_http._tcp` and, when HTTPS
 * is served, `_https._tcp`, both under the instance "Ironbox <site>" on the host
 * `ironbox-<site>.local`, whose A records (the LAN addresses) the box answers itself
 * (bonjour-service registers them for a service's `host` and answers A queries for them).
 * Binds to all interfaces: bound to 127.0.0.1 alone it would receive nothing (STACK-NOTES).
 *
 * Two boxes with the same site name on one LAN: the second renames itself "Ironbox <site>
 * (2)" on host `ironbox-<site>-2.local`, then (3)…, and logs that it did (its certificate
 * does not carry that name: give each box its own IRONBOX_SITE_NAME). It first listens for
 * the names already announced; should another box claim the same name at the same moment,
 * bonjour-service's own probe finds the clash and stops that service (logging "Service name
 * is already in use"), and the box tries the next number. `name` resolves to the name in use.
 */
export function advertise(
  site: string,
  ports: { http: number; https: number | null },
  log: (message: string) => void = console.log,
): { name: Promise<string>; stop(): Promise<void> } {
  const bonjour = new Bonjour({ interface: "0.0.0.0" } as never);
  const base = `Ironbox ${site}`.replaceAll(".", "-"); // bonjour-service does the same to dots
  let stopped = false;
  const name = (async () => {
    const taken = new Set((await names(bonjour, LISTEN_MS)).map((n) => n.toLowerCase()));
    for (let n = 1; !stopped; n++) {
      const candidate = n === 1 ? base : `${base} (${n})`;
      if (taken.has(candidate.toLowerCase())) continue;
      const host = stableHostName(n === 1 ? site : `${site} ${n}`);
      if (await claim(bonjour, candidate, host, ports)) {
        if (n > 1) log(`mDNS: another box on this network is already "${base}"; this one advertises itself as "${candidate}" (${host})`);
        return candidate;
      }
      taken.add(candidate.toLowerCase());
    }
    return "";
  })();
  return {
    name,
    stop: () => {
      stopped = true;
      return new Promise<void>((resolve) => bonjour.unpublishAll(() => bonjour.destroy(() => resolve())));
    },
  };
}

/** The `_http._tcp` instance names answering on the LAN within `ms`. */
function names(bonjour: Bonjour, ms: number): Promise<string[]> {
  const found: string[] = [];
  const b = bonjour.find({ type: "http" }, (s) => found.push(s.name));
  return new Promise((resolve) =>
    setTimeout(() => {
      b.stop();
      resolve(found);
    }, ms),
  );
}

/**
 * Publishes `_http._tcp` under `name`; false when the probe found another holder
 * (bonjour-service then stops the service). `_https._tcp` follows under the name won.
 */
async function claim(bonjour: Bonjour, name: string, host: string, ports: { http: number; https: number | null }): Promise<boolean> {
  const txt = { path: "/", api: "/api/v1" };
  const service = bonjour.publish({ name, type: "http", host, port: ports.http, txt, disableIPv6: true });
  for (let waited = 0; waited < CLAIM_MS; waited += 50) {
    if (service.published || !service.activated) break;
    await Bun.sleep(50);
  }
  if (!service.activated) return false;
  if (ports.https !== null) bonjour.publish({ name, type: "https", host, port: ports.https, txt, probe: false, disableIPv6: true });
  return true;
}

/** Finds Ironbox boxes on the LAN (used by tests and diagnostics): `_http._tcp` or `_https._tcp`. */
export function browse(ms: number, type: "http" | "https" = "http"): Promise<{ name: string; port: number; host: string }[]> {
  const bonjour = new Bonjour({ interface: "0.0.0.0" } as never);
  const found: { name: string; port: number; host: string }[] = [];
  const b = bonjour.find({ type }, (s) => {
    if (s.name.startsWith("Ironbox ")) found.push({ name: s.name, port: s.port, host: s.host });
  });
  return new Promise((resolve) =>
    setTimeout(() => {
      b.stop();
      bonjour.destroy();
      resolve(found);
    }, ms),
  );
}
