import { afterAll, beforeAll, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { freePort } from "../../test/ports";

// Issue 35: HQ's public address travels down in its signed reference snapshot, so a shop box
// without IRONBOX_PUBLIC_URL mints status links on HQ's address; a shop's own setting still wins.
const API = "/api/v1";
const TOKEN = "public-url-peer-token-0123456789";
const HQ_URL = "https://status.chain.test";
let hq: TestBox;
let server: { stop(): void };
const boxes: TestBox[] = [];
afterAll(() => {
  server?.stop();
  for (const b of boxes) b.close();
  hq?.close();
});

let port = 0;
let publicKey = "";
beforeAll(async () => {
  port = await freePort();
  hq = await testBox({ env: { IRONBOX_MODE: "hq", IRONBOX_HQ_TOKEN: TOKEN, IRONBOX_PUBLIC_URL: HQ_URL } });
  server = hq.app.listen({ port, hostname: "127.0.0.1" });
  const r = await hq.call("POST", `${API}/reference/publish`, { token: await hq.employeeToken(ADMIN.pin) });
  expect(r.status).toBe(200);
  publicKey = r.json.data.public_key;
});

async function shop(env: Record<string, string> = {}, demo = false) {
  const box = await testBox({ demo, env: { IRONBOX_HQ_URL: `http://127.0.0.1:${port}`, IRONBOX_HQ_PUBLIC_KEY: publicKey, IRONBOX_HQ_TOKEN: TOKEN, ...env } });
  boxes.push(box);
  return box;
}
const sync = async (box: TestBox) => {
  const r = await box.call("POST", `${API}/reference/sync`, { token: await box.employeeToken(ADMIN.pin) });
  expect(r.json.data).toMatchObject({ last_error: null });
};
const mint = async (box: TestBox) => {
  const t = (await box.database.db.query.tickets.findFirst())!;
  return box.database.db.transaction((tx) => box.statusLinks.mint(tx, t));
};

test("a shop linked to HQ mints links on HQ's address after a reference sync; its own setting wins", async () => {
  const plain = await shop({}, true);
  expect(plain.statusLinks.enabled()).toBe(false);
  await sync(plain);
  expect(plain.statusLinks.sample()).toBe(`${HQ_URL}/s/${"x".repeat(24)}`);
  expect(await mint(plain)).toMatch(new RegExp(`^${HQ_URL}/s/[A-Za-z0-9_-]{24}$`));

  const own = await shop({ IRONBOX_PUBLIC_URL: "https://shop.example.test" });
  await sync(own);
  expect(own.statusLinks.sample()).toStartWith("https://shop.example.test/s/");
});
