import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

let box: TestBox;
let admin: string;
beforeAll(async () => {
  box = await testBox();
  admin = await box.employeeToken(ADMIN.pin);
});
afterAll(() => box.close());

// A real 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

async function upload(bytes: Uint8Array<ArrayBuffer>, name: string, type: string, token = admin) {
  const form = new FormData();
  form.append("file", new File([bytes], name, { type }));
  const res = await box.app.handle(new Request("http://localhost/api/v1/images/", { method: "POST", headers: { authorization: `token ${token}` }, body: form }));
  return { status: res.status, json: (await res.json()) as any };
}

test("a PNG uploads, is stored under a random name and served with long caching", async () => {
  const r = await upload(PNG, "swatch.png", "image/png");
  expect(r.status).toBe(200);
  expect(r.json.data).toMatchObject({ mime: "image/png", size: PNG.length });
  expect(r.json.data.url).toMatch(/^\/api\/v1\/images\/[0-9a-f-]{36}\.png$/);
  expect(existsSync(join(box.dir, "images", r.json.data.file))).toBe(true);
  const got = await box.app.handle(new Request(`http://localhost${r.json.data.url}`));
  expect(got.status).toBe(200);
  expect(got.headers.get("content-type")).toBe("image/png");
  expect(got.headers.get("cache-control")).toContain("immutable");
  expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true);
});

test("files that are not images are refused whatever they claim to be; nothing is left behind", async () => {
  const before = readdirSync(join(box.dir, "images")).length;
  const r = await upload(new TextEncoder().encode("<svg onload=alert(1)>"), "evil.png", "image/png");
  expect(r.status).toBe(422);
  expect(r.json.message).toContain("PNG, JPEG");
  const big = new Uint8Array(5 * 1024 * 1024 + 1);
  big.set(PNG);
  expect((await upload(big, "big.png", "image/png")).status).toBe(422);
  expect(readdirSync(join(box.dir, "images")).length).toBe(before);
  expect((await box.app.handle(new Request("http://localhost/api/v1/images/00000000-0000-0000-0000-000000000000.png"))).status).toBe(404);
  expect((await box.app.handle(new Request("http://localhost/api/v1/images/..%2F..%2Fironbox.db"))).status).toBe(422);
});

test("uploading needs an employee session", async () => {
  const form = new FormData();
  form.append("file", new File([PNG], "a.png"));
  const res = await box.app.handle(new Request("http://localhost/api/v1/images/", { method: "POST", body: form }));
  expect(res.status).toBe(401);
});
