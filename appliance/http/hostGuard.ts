import { hostname } from "node:os";
import { stableHostName } from "../domain/lanNames";
import { fail, jsonResponse } from "./envelope";
import { SECURITY_HEADERS } from "./security";

/**
 * Issue 22, DNS rebinding: a web page at attacker.example can make its own name resolve to the
 * box's LAN address; the tablet's browser then treats the box as attacker.example's origin
 * and lets that page read the box's answers. Such requests carry the attacker's name in Host,
 * so the box answers only to names it knows it has:
 * - its stable mDNS name (ironbox-<site>.local), its host name and <host name>.local, localhost;
 * - any name its own configuration points at it (the host of IRONBOX_HQ_URL, when set);
 * - IRONBOX_ALLOWED_HOSTS, a comma list (an entry starting with "." allows that domain's names),
 *   for a box reached by another name (HQ's box under its DNS name, a reverse proxy);
 * - any IP address literal: a browser sends Host: 192.168.1.20 only to a page that itself came
 *   from http://192.168.1.20, which is the box's own origin, so an address cannot be rebound.
 *   This covers the box's LAN addresses however DHCP renumbers them, and HQ reached by address
 *   through a port forward.
 * Anything else: 421 Misdirected Request, before any route, page or file.
 */
export function boxHostNames(opts: { site: string; allowedHosts: string[]; hqUrl: string | null; host?: string }): string[] {
  const host = (opts.host ?? hostname()).toLowerCase();
  const names = new Set([stableHostName(opts.site), "localhost", host, `${host}.local`]);
  if (opts.hqUrl) names.add(new URL(opts.hqUrl).hostname.toLowerCase());
  for (const n of opts.allowedHosts) names.add(n.toLowerCase());
  return [...names];
}

const isIpLiteral = (h: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(h) || (h.startsWith("[") && h.endsWith("]"));

export const MISDIRECTED = "This box does not answer to that name: open it by its own name or address (IRONBOX_ALLOWED_HOSTS adds a name)";

export function hostGuard(names: string[]) {
  const exact = new Set(names.filter((n) => !n.startsWith(".")));
  const domains = names.filter((n) => n.startsWith("."));
  return (request: Request): Response | undefined => {
    let host: string;
    try {
      // Bun builds request.url from the Host header; WHATWG URL lower-cases it and normalises addresses.
      host = new URL(request.url).hostname.replace(/\.$/, "");
    } catch {
      host = "";
    }
    if (exact.has(host) || isIpLiteral(host) || domains.some((d) => host.endsWith(d))) return undefined;
    return jsonResponse(421, fail(MISDIRECTED), { ...SECURITY_HEADERS, "cache-control": "no-store" });
  };
}
