import { hostname, networkInterfaces } from "node:os";
import { stableHostName } from "../domain/lanNames";
import { fail, jsonResponse } from "./envelope";
import { SECURITY_HEADERS } from "./security";

/**
 * Issue 22, DNS rebinding: a web page at attacker.example can make its own name resolve to the
 * box's LAN address; the tablet's browser then treats the box as attacker.example's origin
 * and lets that page read the box's answers. Such requests carry the attacker's name in Host,
 * so the box answers only to names and addresses it knows it has:
 * - its stable mDNS name (ironbox-<site>.local), its host name and <host name>.local, localhost;
 * - any name its own configuration points at it (the host of IRONBOX_HQ_URL, when set);
 * - IRONBOX_ALLOWED_HOSTS, a comma list (an entry starting with "." allows that domain's names;
 *   an address is allowed too, e.g. HQ's public address behind a port forward);
 * - its own addresses: loopback (127.0.0.0/8, ::1) and every address of its network interfaces.
 *   Not any address: a box answering to 203.0.113.9 is being reached through something it does
 *   not know of (a forward, a proxy), which is what IRONBOX_ALLOWED_HOSTS is for. When DHCP
 *   renumbers the box, the first request to an unknown address re-reads the interfaces (at most
 *   once per REREAD_MS), so the new address is answered without a restart.
 * Anything else: 421 Misdirected Request, before any route, page or file.
 */
export function boxHostNames(opts: { site: string; allowedHosts: string[]; hqUrl: string | null; host?: string }): string[] {
  const host = (opts.host ?? hostname()).toLowerCase();
  const names = new Set([stableHostName(opts.site), "localhost", host, `${host}.local`]);
  if (opts.hqUrl) names.add(canonical(new URL(opts.hqUrl).hostname.toLowerCase()));
  for (const n of opts.allowedHosts) names.add(canonical(n.toLowerCase()));
  return [...names];
}

/** Every address of the box's interfaces (IPv4 and IPv6, loopback included), as os reports them. */
export function interfaceAddresses(): string[] {
  const out: string[] = [];
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) out.push(canonical(a.address.toLowerCase()));
  return out;
}

/** How often an unknown address may make the guard re-read the interfaces. */
const REREAD_MS = 2_000;

const unbracket = (h: string) => (h.startsWith("[") && h.endsWith("]") ? h.slice(1, -1) : h);
/** An IPv6 address written as the URL parser writes it (compressed, lower case), so both compare equal. */
const canonical = (h: string) => (h.includes(":") ? unbracket(new URL(`http://[${unbracket(h)}]/`).hostname) : h);
const isLoopback = (h: string) => /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === "::1";
const isIpLiteral = (h: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(h) || h.includes(":");

export const MISDIRECTED = "This box does not answer to that name: open it by its own name or address (IRONBOX_ALLOWED_HOSTS adds a name)";

export function hostGuard(names: string[], opts: { addresses?: () => string[]; now?: () => number } = {}): (request: Request) => Response | undefined {
  const exact = new Set(names.filter((n) => !n.startsWith(".")));
  const domains = names.filter((n) => n.startsWith("."));
  const readAddresses = opts.addresses ?? interfaceAddresses;
  const now = opts.now ?? Date.now;
  let own = new Set(readAddresses());
  let readAt = now();
  const ownAddress = (ip: string) => {
    if (own.has(ip)) return true;
    if (now() - readAt < REREAD_MS) return false;
    own = new Set(readAddresses());
    readAt = now();
    return own.has(ip);
  };
  return (request: Request) => {
    let host: string;
    try {
      // Bun builds request.url from the Host header; WHATWG URL lower-cases it and normalises addresses.
      host = unbracket(new URL(request.url).hostname.replace(/\.$/, ""));
    } catch {
      host = "";
    }
    if (exact.has(host)) return undefined;
    if (isIpLiteral(host) ? isLoopback(host) || ownAddress(host) : domains.some((d) => host.endsWith(d))) return undefined;
    return jsonResponse(421, fail(MISDIRECTED), { ...SECURITY_HEADERS, "cache-control": "no-store" });
  };
}
