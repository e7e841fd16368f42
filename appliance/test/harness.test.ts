// The harness's empty-box template (issue 33): every empty box starts from a copy of one
// migrated database per test process, yet each test still gets a box of its own.
import { afterEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type TestBox, testBox } from "./harness";

const boxes: TestBox[] = [];
afterEach(() => {
  for (const b of boxes.splice(0)) b.close();
});
async function open(opts?: Parameters<typeof testBox>[0]) {
  const box = await testBox(opts);
  boxes.push(box);
  return box;
}
async function value(box: TestBox, sql: string, args: (string | number)[] = []) {
  const rows = (await box.database.client.execute({ sql, args })).rows;
  return rows[0]?.[0] ?? null;
}

test("empty boxes are copies of one migrated box: the admin's argon2 hash is made once, and logging in works", async () => {
  const a = await open();
  const b = await open();
  const hash = await value(a, "SELECT password_hash FROM agents WHERE user_name = 'admin'");
  // argon2 salts each hash: two boxes that each hashed the password would differ.
  expect(hash).toBeString();
  expect(await value(b, "SELECT password_hash FROM agents WHERE user_name = 'admin'")).toBe(hash);
  expect(await b.employeeToken("9999", await b.agentToken())).toBeString();
});

test("each box has its own data folder, database and clock; nothing written reaches the next box", async () => {
  const a = await open();
  const b = await open();
  expect(a.dir).not.toBe(b.dir);
  await a.database.client.execute("INSERT INTO box_settings (key, value) VALUES ('harness_probe', 'a')");
  expect(await value(b, "SELECT value FROM box_settings WHERE key = 'harness_probe'")).toBeNull();
  a.clock.advance(86_400_000);
  expect(b.clock.now().toISOString()).toBe("2026-11-22T09:00:00.000Z");
  a.close();
  boxes.splice(boxes.indexOf(a), 1);
  expect(existsSync(a.dir)).toBe(false);
  const c = await open();
  expect(await value(c, "SELECT value FROM box_settings WHERE key = 'harness_probe'")).toBeNull();
});

test("the first boot's rows carry each box's own now (a month's end here), not another box's", async () => {
  const late = await open({ now: "2026-03-31T22:30:00Z" });
  const usual = await open();
  const setupAt = "SELECT at FROM audit_log WHERE action = 'first_run_setup'";
  expect(await value(late, setupAt)).toBe("2026-03-31T22:30:00.000Z");
  expect(await value(usual, setupAt)).toBe("2026-11-22T09:00:00.000Z");
});

test("a box without an admin needs setup and has its own setup code; a box with one has neither", async () => {
  const bare = await open({ admin: false });
  const other = await open({ admin: false });
  const set = await open();
  expect((await bare.call("GET", "/api/v1/health")).json.data.setup_required).toBe(true);
  expect(await value(bare, "SELECT count(*) FROM agents")).toBe(0);
  expect(existsSync(join(bare.dir, "setup-code"))).toBe(true);
  expect(existsSync(join(other.dir, "setup-code"))).toBe(true);
  expect((await set.call("GET", "/api/v1/health")).json.data.setup_required).toBe(false);
  expect(existsSync(join(set.dir, "setup-code"))).toBe(false);
});
