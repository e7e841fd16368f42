import { Bonjour } from "bonjour-service";

/**
 * Advertises the box on the shop LAN (ARCHITECTURE: `_http._tcp`, instance "Ironbox <site>")
 * so tablets find it by name. Binds to all interfaces: bound to 127.0.0.1 alone it would
 * receive nothing (STACK-NOTES).
 */
export function advertise(site: string, port: number): { stop(): Promise<void> } {
  const bonjour = new Bonjour({ interface: "0.0.0.0" } as never);
  bonjour.publish({ name: `Ironbox ${site}`, type: "http", port, txt: { path: "/", api: "/api/v1" } });
  return {
    stop: () => new Promise<void>((resolve) => bonjour.unpublishAll(() => bonjour.destroy(() => resolve()))),
  };
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
