import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stableHostName } from "../domain/lanNames";
import { certificateNames, ensureCertificates, readCaCertificate, readCertificateInfo } from "./tls";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "ironbox-tls-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const NAMES = ["ironbox-test-site.local", "localhost", "shopbox", "shopbox.local", "127.0.0.1", "192.168.1.20"];
const NOW = new Date("2026-11-23T10:00:00Z");
const DAY = 86_400_000;
const quiet = () => {};

/** openssl, an independent implementation, reads what the box wrote. */
const openssl = (...args: string[]) => {
  const r = Bun.spawnSync(["openssl", ...args], { stdout: "pipe", stderr: "pipe" });
  return { ok: r.exitCode === 0, out: r.stdout.toString() + r.stderr.toString() };
};

test("the stable host name is ironbox-<site>.local, a valid DNS label whatever the site is called", () => {
  expect(stableHostName("Test Site")).toBe("ironbox-test-site.local");
  expect(stableHostName("Birkirkara")).toBe("ironbox-birkirkara.local");
  expect(stableHostName("Ħamrun / Main St.")).toBe("ironbox-amrun-main-st.local");
  expect(stableHostName("***")).toBe("ironbox.local");
  expect(stableHostName("x".repeat(100)).split(".")[0]!.length).toBeLessThanOrEqual(63);
  expect(certificateNames("Test Site", "ShopBox", ["127.0.0.1", "192.168.1.20"])).toEqual([
    "ironbox-test-site.local",
    "localhost",
    "shopbox",
    "shopbox.local",
    "127.0.0.1",
    "192.168.1.20",
  ]);
  // A host name that is not a DNS label stays out (the certificate would be refused).
  expect(certificateNames("Test Site", "my_box", ["127.0.0.1"])).toEqual(["ironbox-test-site.local", "localhost", "127.0.0.1"]);
});

test("first start: a CA (CA:true, keyCertSign, ~10 years) signs a server certificate for every name and address, keys 0600", async () => {
  const dir = tempDir();
  expect(readCertificateInfo(dir)).toBeNull();
  const tls = await ensureCertificates({ dataDir: dir, site: "Test Site", names: NAMES, now: NOW, log: quiet });
  expect(tls.renewed).toBe("no server certificate yet");
  const t = join(dir, "tls");
  expect(statSync(join(t, "ca.key")).mode & 0o777).toBe(0o600);
  expect(statSync(join(t, "server.key")).mode & 0o777).toBe(0o600);
  expect(statSync(t).mode & 0o777).toBe(0o700);

  const ca = openssl("x509", "-in", join(t, "ca.crt"), "-noout", "-text", "-enddate");
  expect(ca.out).toMatch(/Basic Constraints: critical\s+CA:TRUE/);
  expect(ca.out).toMatch(/Key Usage: critical\s+Certificate Sign/);
  expect(ca.out).toContain("notAfter=Nov 20 10:00:00 2036 GMT");
  expect(openssl("verify", "-CAfile", join(t, "ca.crt"), "-purpose", "sslserver", join(t, "server.crt")).ok).toBe(true);
  const server = openssl("x509", "-in", join(t, "server.crt"), "-noout", "-text");
  expect(server.out).toContain("DNS:ironbox-test-site.local, DNS:localhost, DNS:shopbox, DNS:shopbox.local, IP Address:127.0.0.1, IP Address:192.168.1.20");
  expect(server.out).toContain("TLS Web Server Authentication");

  const info = readCertificateInfo(dir)!;
  expect(info.names).toEqual(NAMES);
  // Apple and Chromium refuse locally trusted server certificates valid longer than 825 days.
  expect((Date.parse(info.expires_at) - NOW.getTime()) / DAY).toBeLessThanOrEqual(825);
  expect((Date.parse(info.expires_at) - NOW.getTime()) / DAY).toBeGreaterThan(800);
  // /ca.crt serves DER; the fingerprint is the SHA-256 of it, as Android shows it.
  expect(tls.caFingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  const der = openssl("x509", "-in", join(t, "ca.crt"), "-noout", "-fingerprint", "-sha256");
  expect(der.out).toContain(tls.caFingerprint);
  expect(new Bun.CryptoHasher("sha256").update(tls.caDer).digest("hex").toUpperCase()).toBe(tls.caFingerprint.replaceAll(":", ""));
});

test("a restart keeps both certificates; changed names or addresses, or a near end, renew the server certificate under the same CA", async () => {
  const dir = tempDir();
  const first = await ensureCertificates({ dataDir: dir, site: "Test Site", names: NAMES, now: NOW, log: quiet });
  const serverPem = readFileSync(join(dir, "tls/server.crt"), "utf8");

  const again = await ensureCertificates({ dataDir: dir, site: "Test Site", names: [...NAMES].reverse(), now: NOW, log: quiet });
  expect(again.renewed).toBeNull();
  expect(readFileSync(join(dir, "tls/server.crt"), "utf8")).toBe(serverPem);
  expect(again.key).toBe(first.key);

  const logs: string[] = [];
  const moved = [...NAMES.slice(0, -1), "10.0.0.7"];
  const renamed = await ensureCertificates({ dataDir: dir, site: "Test Site", names: moved, now: NOW, log: (m) => logs.push(m) });
  expect(renamed.renewed).toBe(`names changed to ${moved.join(", ")}`);
  expect(logs.join("\n")).toContain("server certificate made for");
  expect(renamed.caFingerprint).toBe(first.caFingerprint);
  expect(readCertificateInfo(dir)!.names).toContain("10.0.0.7");
  expect(openssl("verify", "-CAfile", join(dir, "tls/ca.crt"), join(dir, "tls/server.crt")).ok).toBe(true);

  const later = new Date(NOW.getTime() + 800 * DAY);
  const renewedLater = await ensureCertificates({ dataDir: dir, site: "Test Site", names: moved, now: later, log: quiet });
  expect(renewedLater.renewed).toMatch(/^expires /);
  expect(renewedLater.caFingerprint).toBe(first.caFingerprint);
  expect(Date.parse(readCertificateInfo(dir)!.expires_at)).toBeGreaterThan(later.getTime() + 800 * DAY);
});

test("near the CA's end the server certificate never outlives it, and then a new CA is made (and logged)", async () => {
  const dir = tempDir();
  const first = await ensureCertificates({ dataDir: dir, site: "Test Site", names: NAMES, now: NOW, log: quiet });
  const caEnd = NOW.getTime() + 3650 * DAY;
  const late = new Date(caEnd - 200 * DAY);
  await ensureCertificates({ dataDir: dir, site: "Test Site", names: [...NAMES, "10.1.1.1"], now: late, log: quiet });
  expect(Date.parse(readCertificateInfo(dir)!.expires_at)).toBeLessThanOrEqual(caEnd);

  const logs: string[] = [];
  const end = await ensureCertificates({ dataDir: dir, site: "Test Site", names: NAMES, now: new Date(caEnd - 10 * DAY), log: (m) => logs.push(m) });
  expect(end.caFingerprint).not.toBe(first.caFingerprint);
  expect(end.renewed).toBe("new certificate authority");
  expect(logs[0]).toContain("every tablet must install it again");
});

/** openssl s_client as the TLS client; async, since the server answers from this same process. */
async function sClient(port: number, name: string, caFile: string) {
  const p = Bun.spawn(
    [
      "openssl",
      "s_client",
      "-connect",
      `127.0.0.1:${port}`,
      "-servername",
      name,
      "-verify_hostname",
      name,
      "-CAfile",
      caFile,
      "-verify_return_error",
      "-brief",
    ],
    { stdin: new TextEncoder().encode("Q\n"), stdout: "pipe", stderr: "pipe" },
  );
  const timer = setTimeout(() => p.kill(), 10_000);
  const out = (await new Response(p.stdout).text()) + (await new Response(p.stderr).text());
  const code = await p.exited;
  clearTimeout(timer);
  return { code, out };
}

test("a TLS client that trusts only the box's CA connects by the box's name with no error", async () => {
  const dir = tempDir();
  const tls = await ensureCertificates({ dataDir: dir, site: "Test Site", names: NAMES, log: quiet });
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", tls: { cert: tls.cert, key: tls.key }, fetch: () => new Response("ok") });
  try {
    const good = await sClient(server.port!, "ironbox-test-site.local", join(dir, "tls/ca.crt"));
    expect(good.out).toContain("Verification: OK");
    expect(good.code).toBe(0);
    // A name the certificate does not carry is refused: the check can fail.
    const wrong = await sClient(server.port!, "other.local", join(dir, "tls/ca.crt"));
    expect(wrong.code).not.toBe(0);
  } finally {
    server.stop(true);
  }
});

/** openssl signs a leaf for `san` with the box's CA key, as whoever copied tls/ca.key would. */
function leafSignedWithCaKey(dir: string, san: string): string {
  const t = join(dir, "tls");
  const name = san.replace(/\W/g, "_");
  const csr = join(dir, `${name}.csr`);
  const leaf = join(dir, `${name}.crt`);
  const made = openssl(
    "req",
    "-new",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    join(dir, `${name}.key`),
    "-subj",
    "/CN=leaf",
    "-addext",
    `subjectAltName=${san}`,
    "-out",
    csr,
  );
  expect(made.ok).toBe(true);
  const signed = openssl(
    "x509",
    "-req",
    "-in",
    csr,
    "-CA",
    join(t, "ca.crt"),
    "-CAkey",
    join(t, "ca.key"),
    "-copy_extensions",
    "copy",
    "-days",
    "30",
    "-out",
    leaf,
  );
  expect(signed.ok).toBe(true);
  return leaf;
}

test("issue 22: the CA carries a critical name constraint: the box's names and private ranges only", async () => {
  const dir = tempDir();
  await ensureCertificates({ dataDir: dir, site: "Test Site", names: NAMES, now: NOW, log: quiet });
  const t = join(dir, "tls");
  const text = openssl("x509", "-in", join(t, "ca.crt"), "-noout", "-text").out;
  expect(text).toContain("X509v3 Name Constraints: critical");
  const permitted = text.slice(text.indexOf("Permitted:"));
  for (const want of [
    "DNS:local",
    "DNS:localhost",
    "DNS:shopbox",
    "IP:10.0.0.0/255.0.0.0",
    "IP:172.16.0.0/255.240.0.0",
    "IP:192.168.0.0/255.255.0.0",
    "IP:127.0.0.0/255.0.0.0",
    "IP:FC00:0:0:0:0:0:0:0/FE00:0:0:0:0:0:0:0",
    "IP:FE80:0:0:0:0:0:0:0/FFC0:0:0:0:0:0:0:0",
    "IP:0:0:0:0:0:0:0:1/FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF",
  ])
    expect(permitted).toContain(want);
  // The box's own certificate still verifies, for a TLS server.
  expect(openssl("verify", "-CAfile", join(t, "ca.crt"), "-purpose", "sslserver", join(t, "server.crt")).ok).toBe(true);

  // Attack: whoever holds ca.key signs for an outside site or a public address: refused.
  for (const san of ["DNS:example.com", "DNS:www.google.com", "IP:8.8.8.8", "DNS:shopbox.example.com", "DNS:notlocal"]) {
    const r = openssl("verify", "-CAfile", join(t, "ca.crt"), leafSignedWithCaKey(dir, san));
    expect({ san, ok: r.ok }).toEqual({ san, ok: false });
    expect(r.out).toContain("permitted subtree violation");
  }
  // Control: the same key signing for the box's own kinds of names verifies.
  for (const san of ["DNS:ironbox-test-site.local", "DNS:shopbox", "DNS:localhost", "IP:192.168.1.20", "IP:10.9.8.7"])
    expect({ san, ok: openssl("verify", "-CAfile", join(t, "ca.crt"), leafSignedWithCaKey(dir, san)).ok }).toEqual({ san, ok: true });
});

test("issue 22: a box address outside the private ranges is permitted as itself; a later outside name is left out, not fatal", async () => {
  const dir = tempDir();
  const logs: string[] = [];
  await ensureCertificates({ dataDir: dir, site: "Test Site", names: [...NAMES, "203.0.113.5"], now: NOW, log: quiet });
  const t = join(dir, "tls");
  expect(openssl("x509", "-in", join(t, "ca.crt"), "-noout", "-text").out).toContain("IP:203.0.113.5/255.255.255.255");
  expect(openssl("verify", "-CAfile", join(t, "ca.crt"), join(t, "server.crt")).ok).toBe(true);
  // The host is renamed and moves to another public address: the CA cannot cover them; the
  // certificate keeps the names it can (a refused name would void the whole certificate).
  const first = readCaCertificate(dir)!.fingerprint;
  await ensureCertificates({
    dataDir: dir,
    site: "Test Site",
    names: ["ironbox-test-site.local", "localhost", "newname", "198.51.100.9", "192.168.1.20"],
    now: NOW,
    log: (m) => logs.push(m),
  });
  expect(readCaCertificate(dir)!.fingerprint).toBe(first);
  expect(readCertificateInfo(dir)!.names).toEqual(["ironbox-test-site.local", "localhost", "192.168.1.20"]);
  expect(logs.join("\n")).toContain("newname, 198.51.100.9 left out of the server certificate");
  expect(openssl("verify", "-CAfile", join(t, "ca.crt"), join(t, "server.crt")).ok).toBe(true);
});

test("issue 22: a box with an old-style CA (no name constraints) replaces it and its server certificate once, and only once", async () => {
  const dir = tempDir();
  const t = join(dir, "tls");
  mkdirSync(t, { recursive: true });
  // What a box made before issue 22 holds: a CA with no name constraints, and a leaf from it.
  expect(
    openssl(
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-keyout",
      join(t, "ca.key"),
      "-out",
      join(t, "ca.crt"),
      "-subj",
      "/CN=Ironbox Test Site local CA/O=Ironbox",
      "-days",
      "3650",
      "-addext",
      "basicConstraints=critical,CA:TRUE,pathlen:0",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ).ok,
  ).toBe(true);
  const oldLeaf = leafSignedWithCaKey(dir, NAMES.map((n) => (/^[\d.]+$/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(","));
  Bun.spawnSync(["cp", oldLeaf, join(t, "server.crt")]);
  Bun.spawnSync(["cp", oldLeaf.replace(/\.crt$/, ".key"), join(t, "server.key")]);
  // The old CA could vouch for anyone: the attack this replacement closes.
  expect(openssl("verify", "-CAfile", join(t, "ca.crt"), leafSignedWithCaKey(dir, "DNS:example.com")).ok).toBe(true);
  const oldFingerprint = readCaCertificate(dir)!.fingerprint;
  expect(readCaCertificate(dir)!.replaced_at).toBeNull();

  const logs: string[] = [];
  const boot1 = await ensureCertificates({ dataDir: dir, site: "Test Site", names: NAMES, now: NOW, log: (m) => logs.push(m) });
  expect(boot1.caFingerprint).not.toBe(oldFingerprint);
  expect(boot1.renewed).toBe("new certificate authority");
  expect(logs[0]).toContain("could sign for any site (no name constraints); a new one was made: every tablet must install it again");
  expect(readCaCertificate(dir)!.replaced_at).toBe(NOW.toISOString());
  expect(JSON.parse(readFileSync(join(t, "ca-replaced.json"), "utf8")).previous_fingerprint).toBe(oldFingerprint);
  expect(openssl("x509", "-in", join(t, "ca.crt"), "-noout", "-text").out).toContain("X509v3 Name Constraints: critical");
  expect(openssl("verify", "-CAfile", join(t, "ca.crt"), "-purpose", "sslserver", join(t, "server.crt")).ok).toBe(true);
  expect(openssl("verify", "-CAfile", join(t, "ca.crt"), leafSignedWithCaKey(dir, "DNS:example.com")).ok).toBe(false);

  // Later starts keep the new CA and its server certificate: no second replacement.
  const logs2: string[] = [];
  const later = new Date(NOW.getTime() + 5 * DAY);
  const boot2 = await ensureCertificates({ dataDir: dir, site: "Test Site", names: NAMES, now: later, log: (m) => logs2.push(m) });
  const boot3 = await ensureCertificates({ dataDir: dir, site: "Test Site", names: NAMES, now: later, log: (m) => logs2.push(m) });
  expect([boot2.caFingerprint, boot3.caFingerprint]).toEqual([boot1.caFingerprint, boot1.caFingerprint]);
  expect([boot2.renewed, boot3.renewed]).toEqual([null, null]);
  expect(logs2).toEqual([]);
  expect(readCaCertificate(dir)!.replaced_at).toBe(NOW.toISOString());
});
