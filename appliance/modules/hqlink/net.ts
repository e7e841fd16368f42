/** The network questions the link asks: a port for Litestream's metrics, and whether HQ answers. */
import { createConnection, createServer } from "node:net";

/** A free loopback port for Litestream's metrics (asked of the kernel, then handed over). */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.on("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

/** Does something accept TCP connections at host:port within `ms`? */
export function answers(host: string, port: number, ms: number): Promise<boolean> {
  return new Promise((res) => {
    const s = createConnection({ host, port });
    const done = (ok: boolean) => (s.destroy(), res(ok));
    s.setTimeout(ms, () => done(false));
    s.on("connect", () => done(true));
    s.on("error", () => done(false));
  });
}

/** Where a replica URL connects to (for the "is HQ answering" probe); null for a local folder. */
export function endpointOf(url: string): { host: string; port: number } | null {
  const u = new URL(url);
  if (u.protocol === "sftp:") return { host: u.hostname, port: Number(u.port || 22) };
  if (u.protocol === "s3:") {
    const e = u.searchParams.get("endpoint");
    if (!e) return { host: "s3.amazonaws.com", port: 443 };
    const eu = new URL(e);
    return { host: eu.hostname, port: Number(eu.port || (eu.protocol === "https:" ? 443 : 80)) };
  }
  return null;
}
