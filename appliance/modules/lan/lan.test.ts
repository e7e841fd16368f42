import { afterAll, expect, test } from "bun:test";
import { testBox } from "../../test/harness";
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
