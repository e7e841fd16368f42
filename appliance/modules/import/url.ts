// The old system's address is a network address this box connects to on an admin's word, so
// it is checked before any connection (and each name's addresses again when it is resolved):
// http or https only, no user:password in it, and never a link-local address (169.254/16,
// fe80::/10: where clouds answer instance metadata and credentials), a metadata host name,
// the unspecified or a multicast address. The box itself (loopback) is refused from the HQ
// screen, which would otherwise let a web page reach the box's own loopback-only services;
// the command line, run by someone already on the box, may use it.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

const METADATA_NAMES = new Set(["metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"]);

/** An IPv4-mapped IPv6 address (::ffff:1.2.3.4, or ::ffff:102:304 as URL writes it) as IPv4. */
function mappedV4(ip: string): string | null {
  const m = /^::ffff:(.+)$/.exec(ip);
  if (!m) return null;
  if (isIP(m[1]!) === 4) return m[1]!;
  const h = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(m[1]!);
  if (!h) return null;
  const [a, b] = [parseInt(h[1]!, 16), parseInt(h[2]!, 16)];
  return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
}

/** Why an IP address may not be the old system, or null. */
export function addressProblem(ip: string, allowLoopback: boolean): string | null {
  const v4 = mappedV4(ip.toLowerCase()) ?? ip;
  if (isIP(v4) === 4) {
    const [a, b] = v4.split(".").map(Number) as [number, number];
    if (a === 169 && b === 254) return "a link-local address (where instance metadata lives) is not allowed";
    if (a === 0) return "the unspecified address is not allowed";
    if (a >= 224) return "a multicast or reserved address is not allowed";
    if (a === 127 && !allowLoopback) return "this box's own address (loopback) is not allowed here";
    if (a === 100 && b === 100) return "a metadata address is not allowed";
    return null;
  }
  const low = v4.toLowerCase();
  if (/^fe[89ab]/.test(low)) return "a link-local address (where instance metadata lives) is not allowed";
  if (low === "::") return "the unspecified address is not allowed";
  if (low.startsWith("ff")) return "a multicast address is not allowed";
  if (low === "fd00:ec2::254") return "a metadata address is not allowed";
  if (low === "::1" && !allowLoopback) return "this box's own address (loopback) is not allowed here";
  return null;
}

/** Why this URL may not be the old system's (the form only), or null. */
export function checkSourceUrl(raw: string, o: { allowLoopback: boolean }): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return "not a URL (e.g. http://192.168.1.20:8080)";
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return "only http:// and https:// are allowed";
  if (u.username || u.password) return "a user name or password in the URL is not allowed (use the fields)";
  const host = u.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (METADATA_NAMES.has(host)) return "a metadata host is not allowed";
  if (isIP(host)) return addressProblem(host, o.allowLoopback);
  if ((host === "localhost" || host.endsWith(".localhost")) && !o.allowLoopback) return "this box's own address (loopback) is not allowed here";
  return null;
}

/** The URL's form, then every address its name resolves to. */
export async function checkSourceHost(raw: string, o: { allowLoopback: boolean }): Promise<string | null> {
  const form = checkSourceUrl(raw, o);
  if (form) return form;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return null;
  let found: { address: string }[];
  try {
    found = await lookup(host, { all: true });
  } catch {
    return `the name ${host.slice(0, 100)} is not known`;
  }
  for (const f of found) {
    const p = addressProblem(f.address, o.allowLoopback);
    if (p) return `${host.slice(0, 100)} is ${f.address}: ${p}`;
  }
  return null;
}
