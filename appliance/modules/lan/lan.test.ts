import { afterAll, expect, test } from "bun:test";
import { testBox } from "../../test/harness";
import { join } from "node:path";
import { ensureCertificates } from "../../platform/tls";

const boxes: Awaited<ReturnType<typeof testBox>>[] = [];
afterAll(() => {
  for (const b of boxes) b.close();
});

test("GET /lan/tablet-setup is public: names, ports and, once HTTPS has started, the CA's fingerprint", async () => {
  const box = await testBox({ env: { IRONBOX_SITE_NAME: "Mosta", IRONBOX_PORT: "8080", IRONBOX_HTTPS_PORT: "8443" } });
  boxes.push(box);
  const before = await box.call("GET", "/api/v1/lan/tablet-setup");
  expect(before.status).toBe(200);
  // No certificate yet (main.ts makes it when it starts serving HTTPS).
  expect(before.json.data).toEqual({ site: "Mosta", host_name: "ironbox-mosta.local", http_port: 8080, https_port: null, ca: null, certificate: null });

  const tls = await ensureCertificates({ dataDir: box.dir, site: "Mosta", names: ["ironbox-mosta.local", "localhost", "127.0.0.1"], log: () => {} });
  const after = (await box.call("GET", "/api/v1/lan/tablet-setup")).json.data;
  expect(after.https_port).toBe(8443);
  expect(after.ca).toMatchObject({ url: "/ca.crt", sha256_fingerprint: tls.caFingerprint });
  expect(after.certificate.names).toEqual(["ironbox-mosta.local", "localhost", "127.0.0.1"]);
  // Nothing secret: no key material in the answer.
  expect(JSON.stringify(after)).not.toContain("PRIVATE");
});

test("with IRONBOX_HTTPS=0 the page is told there is no HTTPS, even if certificates remain from before", async () => {
  const box = await testBox({ env: { IRONBOX_SITE_NAME: "Mosta", IRONBOX_HTTPS: "0" } });
  boxes.push(box);
  await ensureCertificates({ dataDir: box.dir, site: "Mosta", names: ["localhost"], log: () => {} });
  const data = (await box.call("GET", "/api/v1/lan/tablet-setup")).json.data;
  expect(data.https_port).toBeNull();
  expect(data.ca).toBeNull();
});

test("issue 22: after the box replaced an old CA, the set-up page is told when (to ask tablets to install the new one)", async () => {
  const box = await testBox({ env: { IRONBOX_SITE_NAME: "Mosta", IRONBOX_HTTPS_PORT: "8443" } });
  boxes.push(box);
  const names = ["ironbox-mosta.local", "localhost", "127.0.0.1"];
  await ensureCertificates({ dataDir: box.dir, site: "Mosta", names, log: () => {} });
  expect((await box.call("GET", "/api/v1/lan/tablet-setup")).json.data.ca.replaced_at).toBeNull();
  // A CA without name constraints, as boxes made before issue 22 hold (openssl writes it).
  const tls = join(box.dir, "tls");
  const made = Bun.spawnSync(
    [
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-keyout",
      join(tls, "ca.key"),
      "-out",
      join(tls, "ca.crt"),
      "-subj",
      "/CN=old CA",
      "-days",
      "3650",
    ],
    { stdout: "ignore", stderr: "ignore" },
  );
  expect(made.exitCode).toBe(0);
  const now = new Date("2026-11-22T09:00:00Z");
  const fresh = await ensureCertificates({ dataDir: box.dir, site: "Mosta", names, now, log: () => {} });
  const ca = (await box.call("GET", "/api/v1/lan/tablet-setup")).json.data.ca;
  expect(ca).toMatchObject({ sha256_fingerprint: fresh.caFingerprint, replaced_at: now.toISOString() });
});
