import { Bonjour } from "bonjour-service";

/** How long the box listens for other boxes' names before it picks its own. */
const LISTEN_MS = 1200;
/** bonjour-service probes a name for about a second before it announces it. */
const CLAIM_MS = 5000;

/**
 * Advertises the box on the shop LAN (ARCHITECTURE: `_http._tcp`, instance "Ironbox <site>")
 * so tablets find it by name. Binds to all interfaces: bound to 127.0.0.1 alone it would
 * receive nothing (STACK-NOTES).
 *
 * Two boxes with the same site name on one LAN: the second renames itself "Ironbox <site>
 * (2)", then (3)…, and logs that it did. It first listens for the names already announced;
 * should another box claim the same name at the same moment, bonjour-service's own probe
 * finds the clash and stops that service (logging "Service name is already in use"), and the
 * box tries the next number. `name` resolves to the name in use.
 */
export function advertise(site: string, port: number, log: (message: string) => void = console.log): { name: Promise<string>; stop(): Promise<void> } {
  const bonjour = new Bonjour({ interface: "0.0.0.0" } as never);
  const base = `Ironbox ${site}`.replaceAll(".", "-"); // bonjour-service does the same to dots
  let stopped = false;
  const name = (async () => {
    const taken = new Set((await names(bonjour, LISTEN_MS)).map((n) => n.toLowerCase()));
    for (let n = 1; !stopped; n++) {
      const candidate = n === 1 ? base : `${base} (${n})`;
      if (taken.has(candidate.toLowerCase())) continue;
      if (await claim(bonjour, candidate, port)) {
        if (n > 1) log(`mDNS: another box on this network is already "${base}"; this one advertises itself as "${candidate}"`);
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

/** Publishes under `name`; false when the probe found another holder (bonjour-service then stops the service). */
async function claim(bonjour: Bonjour, name: string, port: number): Promise<boolean> {
  const service = bonjour.publish({ name, type: "http", port, txt: { path: "/", api: "/api/v1" } });
  for (let waited = 0; waited < CLAIM_MS; waited += 50) {
    if (service.published) return true;
    if (!service.activated) return false;
    await Bun.sleep(50);
  }
  return service.activated;
}

/** Finds Ironbox boxes on the LAN (used by tests and diagnostics). */
export function browse(ms: number): Promise<{ name: string; port: number }[]> {
  const bonjour = new Bonjour({ interface: "0.0.0.0" } as never);
  const found: { name: string; port: number }[] = [];
  const b = bonjour.find({ type: "http" }, (s) => {
    if (s.name.startsWith("Ironbox ")) found.push({ name: s.name, port: s.port });
  });
  return new Promise((resolve) =>
    setTimeout(() => {
      b.stop();
      bonjour.destroy();
      resolve(found);
    }, ms),
  );
}
