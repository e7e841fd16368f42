/**
 * Issue 22: the box's CA may sign only for the box's own names and the private address
 * ranges (RFC 5280 §4.2.1.10 nameConstraints, marked critical so a client that cannot read it
 * refuses the CA rather than trusting it for everything). Whoever copies `tls/ca.key` can then
 * make certificates for `*.local`, the host name and LAN addresses, never for a bank or a mail
 * provider, so a tablet that installed the CA cannot have its web browsing intercepted.
 *
 * DER is written and read here by hand (the structure is small and fixed) rather than through
 * @peculiar/x509's ASN.1 internals, which are not a dependency of their own.
 */

export const NAME_CONSTRAINTS_OID = "2.5.29.30";

/** Private, link-local and loopback ranges a tablet may reach the box by (CIDR). */
export const PRIVATE_RANGES = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "fc00::/7", "fe80::/10", "::1/128"];

export interface Permitted {
  /** DNS subtrees: "local" permits every *.local name; a bare label permits itself and below. */
  dns: string[];
  /** Address ranges as CIDR. */
  ip: string[];
}

function ipBytes(ip: string): number[] | null {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(ip)) {
    const parts = ip.split(".").map(Number);
    return parts.every((p) => p <= 255) ? parts : null;
  }
  if (!ip.includes(":")) return null;
  const [head, tail = null] = ip.split("::") as [string, string?];
  const h = head ? head.split(":") : [];
  const t = tail === null ? [] : tail ? tail.split(":") : [];
  if (tail === null && h.length !== 8) return null;
  const groups = [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  if (groups.length !== 8 || !groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  return groups.flatMap((g) => [Number.parseInt(g, 16) >> 8, Number.parseInt(g, 16) & 255]);
}

function cidrBytes(cidr: string): { addr: number[]; mask: number[] } {
  const [ip, bits] = cidr.split("/") as [string, string];
  const addr = ipBytes(ip);
  if (!addr) throw new Error(`not an address: ${cidr}`);
  const n = Number(bits);
  const mask = addr.map((_, i) => {
    const left = Math.max(0, Math.min(8, n - i * 8));
    return (0xff << (8 - left)) & 0xff;
  });
  return { addr: addr.map((b, i) => b & mask[i]!), mask };
}

/** Whether an address lies in a CIDR range (same family only). */
export function inRange(ip: string, cidr: string): boolean {
  const a = ipBytes(ip);
  const r = cidrBytes(cidr);
  return !!a && a.length === r.addr.length && a.every((b, i) => (b & r.mask[i]!) === r.addr[i]);
}

const isIp = (name: string) => ipBytes(name) !== null;

/** DNS name within a dNSName subtree, as RFC 5280 and OpenSSL read it: equal, or a left extension. */
const dnsWithin = (name: string, base: string) => {
  const n = name.toLowerCase();
  const b = base.toLowerCase().replace(/^\./, "");
  return n === b || n.endsWith(`.${b}`);
};

export function permits(p: Permitted, name: string): boolean {
  return isIp(name) ? p.ip.some((r) => inRange(name, r)) : p.dns.some((b) => dnsWithin(name, b));
}

/**
 * What the CA may sign for, given the names the box has when the CA is made: every .local
 * name, localhost, each other DNS name it has (its host name), the private ranges, and any
 * address of its own outside them (a LAN numbered from a public block) as a single address.
 */
export function permittedFor(names: string[]): Permitted {
  const dns = ["local", "localhost"];
  const ip = [...PRIVATE_RANGES];
  const p = () => ({ dns, ip });
  for (const name of names) {
    if (permits(p(), name)) continue;
    if (isIp(name)) ip.push(`${name}/${name.includes(":") ? 128 : 32}`);
    else dns.push(name.toLowerCase());
  }
  return p();
}

// --- DER -----------------------------------------------------------------------------------

function tlv(tag: number, body: number[]): number[] {
  const n = body.length;
  const len = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 255];
  return [tag, ...len, ...body];
}

/** The extension's value: NameConstraints { permittedSubtrees [0] } of dNSName [2] and iPAddress [7]. */
export function encodeNameConstraints(p: Permitted): Uint8Array<ArrayBuffer> {
  const subtrees = [
    ...p.dns.map((d) => tlv(0x30, tlv(0x82, [...new TextEncoder().encode(d)]))),
    ...p.ip.map((r) => {
      const { addr, mask } = cidrBytes(r);
      return tlv(0x30, tlv(0x87, [...addr, ...mask]));
    }),
  ];
  return new Uint8Array(tlv(0x30, tlv(0xa0, subtrees.flat())));
}

/** Reads back what encodeNameConstraints wrote (permitted dNSName and iPAddress only); null when unreadable. */
export function decodeNameConstraints(der: Uint8Array): Permitted | null {
  const read = (buf: Uint8Array, at: number) => {
    const tag = buf[at]!;
    let len = buf[at + 1]!;
    let start = at + 2;
    if (len & 0x80) {
      const k = len & 0x7f;
      len = 0;
      for (let i = 0; i < k; i++) len = (len << 8) | buf[start + i]!;
      start += k;
    }
    if (start + len > buf.length) throw new Error("truncated");
    return { tag, body: buf.subarray(start, start + len), next: start + len };
  };
  try {
    const outer = read(der, 0);
    if (outer.tag !== 0x30) return null;
    const out: Permitted = { dns: [], ip: [] };
    for (let at = 0; at < outer.body.length; ) {
      const part = read(outer.body, at);
      at = part.next;
      if (part.tag !== 0xa0) continue; // excluded subtrees: none are written
      for (let s = 0; s < part.body.length; ) {
        const subtree = read(part.body, s);
        s = subtree.next;
        const name = read(subtree.body, 0);
        if (name.tag === 0x82) out.dns.push(new TextDecoder().decode(name.body));
        if (name.tag === 0x87) {
          const half = name.body.length / 2;
          const addr = [...name.body.subarray(0, half)];
          const bits = [...name.body.subarray(half)].reduce((n, b) => n + (b.toString(2).match(/1/g)?.length ?? 0), 0);
          const text = half === 4 ? addr.join(".") : Array.from({ length: 8 }, (_, i) => ((addr[2 * i]! << 8) | addr[2 * i + 1]!).toString(16)).join(":");
          out.ip.push(`${text}/${bits}`);
        }
      }
    }
    return out;
  } catch {
    return null;
  }
}
