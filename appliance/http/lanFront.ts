import { SECURITY_HEADERS } from "./security";

/** Pages a tablet needs before it trusts the box's CA: they stay on plain HTTP. */
const HTTP_PAGES = new Set(["/setup-tablet"]);
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A browser opening a page (not a script, an image or an API call). */
const isNavigation = (request: Request) => {
  const mode = request.headers.get("sec-fetch-mode");
  return mode ? mode === "navigate" : (request.headers.get("accept") ?? "").includes("text/html");
};

/**
 * What the box answers before its routes when HTTPS is on (main.ts runs it on every request):
 * - `/ca.crt` on either scheme: the CA certificate (DER, the type Android's installer takes).
 * - Plain HTTP page loads move to HTTPS on the same host name (307: not cached for good, so
 *   turning HTTPS off later strands no tablet). Not moved: the tablet set-up page, the UI's
 *   files (the set-up page loads them over HTTP), the API (a redirected POST is unsafe; old
 *   clients and the set-up page use it), and loopback names (already a secure context: the
 *   box's own console and the tests).
 * Anything else: undefined, and the app answers as usual.
 */
export function lanFront(opts: { httpsPort: number; caDer: Uint8Array<ArrayBuffer>; caFileName: string }) {
  return (request: Request): Response | undefined => {
    if (request.method !== "GET" && request.method !== "HEAD") return undefined;
    const url = new URL(request.url);
    if (url.pathname === "/ca.crt") {
      return new Response(request.method === "HEAD" ? null : opts.caDer, {
        headers: {
          ...SECURITY_HEADERS,
          "content-type": "application/x-x509-ca-cert",
          "content-disposition": `attachment; filename="${opts.caFileName}"`,
          "cache-control": "no-cache",
        },
      });
    }
    if (url.protocol !== "http:" || url.pathname.startsWith("/api/") || HTTP_PAGES.has(url.pathname) || !isNavigation(request)) return undefined;
    // Host comes from the client: move only to a plain host name or IPv4 address.
    if (LOOPBACK.has(url.hostname) || !/^[a-z0-9.-]+$/i.test(url.hostname)) return undefined;
    const to = `https://${url.hostname}:${opts.httpsPort}${url.pathname}${url.search}`;
    return new Response(null, { status: 307, headers: { ...SECURITY_HEADERS, location: to, "cache-control": "no-store" } });
  };
}
