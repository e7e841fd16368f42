import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { hostname, networkInterfaces } from "node:os";
import { join } from "node:path";
import { stableHostName } from "../domain/lanNames";
import { decodeNameConstraints, encodeNameConstraints, NAME_CONSTRAINTS_OID, type Permitted, permits, permittedFor } from "./nameConstraints";
// tsyringe inside @peculiar/x509 needs the Reflect metadata API at import.
import "reflect-metadata";

/**
 * The box's own HTTPS: a local certificate authority made on first start, and a server
 * certificate it signs for every name a tablet may use to reach the box. A tablet installs
 * the CA once (the /setup-tablet page); the server certificate can then be renewed at will.
 *
 * ECDSA P-256 with SHA-256: accepted by Chromium, Android (7+, user CAs in Chrome), iOS and
 * Firefox, and fast to make. The CA lives ~10 years; the server certificate at most 825 days
 * (Apple's ceiling for locally trusted certificates; Chromium's 398-day rule is for public CAs
 * only) and never beyond its CA.
 */

// Loaded after reflect-metadata has run: Bun evaluates a CommonJS package's body before the
// importing module's other imports, so a static import would run ahead of it.
const x509 = await import("@peculiar/x509");
type X509Certificate = import("@peculiar/x509").X509Certificate;
x509.cryptoProvider.set(crypto);

const DAY = 86_400_000;
const CA_DAYS = 3650;
const SERVER_DAYS = 825;
/** Renewed at start when fewer days than this remain. */
const RENEW_BEFORE_DAYS = 30;
const EC = { name: "ECDSA", namedCurve: "P-256" } as const;
const SIGN = { name: "ECDSA", hash: "SHA-256" } as const;

/** The LAN addresses a tablet may type: non-internal IPv4 of every interface, and 127.0.0.1. */
export function lanAddresses(): string[] {
  const out = new Set<string>(["127.0.0.1"]);
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) out.add(a.address);
  }
  return [...out];
}

/** Every name the server certificate must carry: DNS names first, then IP addresses. */
export function certificateNames(site: string, host = hostname(), addresses = lanAddresses()): string[] {
  const dns = new Set([stableHostName(site), "localhost"]);
  // The host's own name, and the .local name avahi-daemon gives it on a Debian box.
  if (/^[a-z0-9-]+$/i.test(host)) {
    dns.add(host.toLowerCase());
    dns.add(`${host.toLowerCase()}.local`);
  }
  return [...dns, ...new Set(addresses)];
}

export interface TlsMaterial {
  /** PEM: the server certificate followed by the CA (the chain a client is sent). */
  cert: string;
  /** PEM PKCS#8 private key of the server certificate. */
  key: string;
  /** The CA certificate, DER (what /ca.crt serves) and its SHA-256 fingerprint (AA:BB:…). */
  caDer: Uint8Array<ArrayBuffer>;
  caFingerprint: string;
  /** Why the server certificate was (re)made at this start, or null when the stored one was kept. */
  renewed: string | null;
}

const files = (dataDir: string) => {
  const dir = join(dataDir, "tls");
  return {
    dir,
    caKey: join(dir, "ca.key"),
    caCert: join(dir, "ca.crt"),
    key: join(dir, "server.key"),
    cert: join(dir, "server.crt"),
    /** When and why the CA was last replaced (the set-up page tells tablets to install the new one). */
    caReplaced: join(dir, "ca-replaced.json"),
  };
};

/** Writes atomically (a crash never leaves half a key); keys readable by the box's user only. */
function writeSecure(path: string, text: string, mode: number): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, text, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

const pemKey = async (key: CryptoKey) => x509.PemConverter.encode(await crypto.subtle.exportKey("pkcs8", key), "PRIVATE KEY");
const importKey = (pem: string) => crypto.subtle.importKey("pkcs8", x509.PemConverter.decode(pem)[0]!, EC, true, ["sign"]);
const generate = () => crypto.subtle.generateKey(EC, true, ["sign", "verify"]) as Promise<CryptoKeyPair>;
const serial = () =>
  Buffer.from(crypto.getRandomValues(new Uint8Array(16)))
    .toString("hex")
    .replace(/^[89a-f]/, "1"); // positive

function readCert(path: string): X509Certificate | null {
  try {
    return new x509.X509Certificate(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}

function sanNames(cert: X509Certificate): string[] {
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
  return san ? san.names.items.map((n) => n.value) : [];
}

/** The CA's critical name constraints, or null when it has none (a CA made before issue 22). */
function caConstraints(cert: X509Certificate): Permitted | null {
  const ext = cert.getExtension(NAME_CONSTRAINTS_OID);
  return ext?.critical ? decodeNameConstraints(new Uint8Array(ext.value)) : null;
}

async function makeCa(site: string, names: string[], now: Date): Promise<{ cert: X509Certificate; key: CryptoKey }> {
  const keys = await generate();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: [{ CN: [`Ironbox ${site} local CA`] }, { O: ["Ironbox"] }],
    notBefore: new Date(now.getTime() - DAY),
    notAfter: new Date(now.getTime() + CA_DAYS * DAY),
    keys,
    signingAlgorithm: SIGN,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      new x509.Extension(NAME_CONSTRAINTS_OID, true, encodeNameConstraints(permittedFor(names))),
    ],
  });
  return { cert, key: keys.privateKey };
}

async function makeServer(site: string, names: string[], ca: { cert: X509Certificate; key: CryptoKey }, now: Date) {
  const keys = await generate();
  const notAfter = Math.min(now.getTime() + SERVER_DAYS * DAY, ca.cert.notAfter.getTime());
  const isIp = (n: string) => /^\d+\.\d+\.\d+\.\d+$/.test(n) || n.includes(":");
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: [{ CN: [stableHostName(site)] }],
    issuer: ca.cert.subjectName,
    notBefore: new Date(now.getTime() - DAY),
    notAfter: new Date(notAfter),
    publicKey: keys.publicKey,
    signingKey: ca.key,
    signingAlgorithm: SIGN,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names.map((value) => ({ type: isIp(value) ? ("ip" as const) : ("dns" as const), value }))),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(ca.cert),
    ],
  });
  return { cert, key: keys.privateKey };
}

/** SHA-256 of the DER, as Android and Chromium show it: AA:BB:… */
const fingerprintOf = (cert: X509Certificate) =>
  createHash("sha256")
    .update(new Uint8Array(cert.rawData))
    .digest("hex")
    .toUpperCase()
    .replace(/(..)(?!$)/g, "$1:");

/**
 * The certificates to serve HTTPS with, made or renewed as needed (run at every start): the CA
 * when missing, unreadable or near its end (tablets then need the new one: logged); the server
 * certificate when missing, not from this CA, near its end, or when the box's names or LAN
 * addresses changed.
 */
export async function ensureCertificates(opts: {
  dataDir: string;
  site: string;
  names?: string[];
  now?: Date;
  log?: (message: string) => void;
}): Promise<TlsMaterial> {
  const now = opts.now ?? new Date();
  const log = opts.log ?? console.log;
  let names = opts.names ?? certificateNames(opts.site);
  const f = files(opts.dataDir);
  mkdirSync(f.dir, { recursive: true, mode: 0o700 });
  chmodSync(f.dir, 0o700);
  const nearEnd = (c: X509Certificate) => c.notAfter.getTime() - now.getTime() < RENEW_BEFORE_DAYS * DAY;

  let ca: { cert: X509Certificate; key: CryptoKey } | null = null;
  const storedCa = readCert(f.caCert);
  // A CA made before issue 22 could sign for any site: replaced once (the new one is constrained).
  const unconstrained = storedCa !== null && caConstraints(storedCa) === null;
  if (storedCa && existsSync(f.caKey) && !nearEnd(storedCa) && !unconstrained) {
    try {
      ca = { cert: storedCa, key: await importKey(readFileSync(f.caKey, "utf8")) };
    } catch {
      ca = null;
    }
  }
  let caRenewed = false;
  if (!ca) {
    const why = unconstrained ? "could sign for any site (no name constraints)" : storedCa && nearEnd(storedCa) ? "was near its end" : "was unusable";
    if (storedCa) log(`HTTPS: the box's certificate authority ${why}; a new one was made: every tablet must install it again (/setup-tablet)`);
    ca = await makeCa(opts.site, names, now);
    writeSecure(f.caKey, await pemKey(ca.key), 0o600);
    writeSecure(f.caCert, ca.cert.toString("pem"), 0o644);
    if (storedCa)
      writeSecure(f.caReplaced, JSON.stringify({ replaced_at: now.toISOString(), reason: why, previous_fingerprint: fingerprintOf(storedCa) }), 0o644);
    caRenewed = true;
  }
  // A name the CA may not sign for would make clients refuse the whole certificate: left out.
  const permitted = caConstraints(ca.cert)!;
  const outside = names.filter((n) => !permits(permitted, n));
  if (outside.length)
    log(`HTTPS: ${outside.join(", ")} left out of the server certificate: the box's certificate authority may not sign for them (made for its earlier names)`);
  names = names.filter((n) => permits(permitted, n));

  const stored = readCert(f.cert);
  const want = [...names].sort().join(",");
  let renewed: string | null = null;
  if (!stored || !existsSync(f.key)) renewed = "no server certificate yet";
  else if (caRenewed || stored.issuer !== ca.cert.subject || !(await stored.verify({ publicKey: ca.cert.publicKey, signatureOnly: true })))
    renewed = "new certificate authority";
  else if (nearEnd(stored)) renewed = `expires ${stored.notAfter.toISOString()}`;
  else if (sanNames(stored).sort().join(",") !== want) renewed = `names changed to ${names.join(", ")}`;

  let serverPem: string;
  let keyPem: string;
  if (renewed) {
    const made = await makeServer(opts.site, names, ca, now);
    serverPem = made.cert.toString("pem");
    keyPem = await pemKey(made.key);
    writeSecure(f.key, keyPem, 0o600);
    writeSecure(f.cert, serverPem, 0o644);
    log(`HTTPS: server certificate made for ${names.join(", ")} (${renewed})`);
  } else {
    serverPem = stored!.toString("pem");
    keyPem = readFileSync(f.key, "utf8");
  }
  return {
    cert: `${serverPem}\n${ca.cert.toString("pem")}\n`,
    key: keyPem,
    caDer: new Uint8Array(ca.cert.rawData),
    caFingerprint: fingerprintOf(ca.cert),
    renewed,
  };
}

/** The served certificate's expiry and names (the health panel); null when the box has none yet. */
export function readCertificateInfo(dataDir: string): { expires_at: string; names: string[] } | null {
  const cert = readCert(files(dataDir).cert);
  return cert ? { expires_at: cert.notAfter.toISOString(), names: sanNames(cert) } : null;
}

/** The box's CA for tablets (/ca.crt and the set-up page); null before HTTPS has ever started. */
export function readCaCertificate(
  dataDir: string,
): { der: Uint8Array<ArrayBuffer>; fingerprint: string; expires_at: string; replaced_at: string | null } | null {
  const f = files(dataDir);
  const cert = readCert(f.caCert);
  if (!cert) return null;
  let replaced_at: string | null = null;
  try {
    replaced_at = String(JSON.parse(readFileSync(f.caReplaced, "utf8")).replaced_at);
  } catch {
    // Never replaced (or the note is gone): the set-up page shows no notice.
  }
  return { der: new Uint8Array(cert.rawData), fingerprint: fingerprintOf(cert), expires_at: cert.notAfter.toISOString(), replaced_at };
}
