// Issue 26 from the HQ screen: the import started over the API runs in the background with
// progress, the address it is given is checked, only HQ staff may start it or export, and the
// export zip unpacks to one parseable CSV per table and a copy of the database.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import type { TestBox } from "../../test/harness";
import { ADMIN, type Served, serve, testBox } from "./testkit";

let src: TestBox;
let served: Served;

beforeAll(async () => {
  src = await testBox({ demo: true });
  served = serve(src);
}, 60_000);
afterAll(() => {
  served.stop();
  src.close();
});

/** A shop's (not HQ's) admin on `box`: the control for HQ-only routes. */
async function shopAdmin(box: TestBox, hqToken: string) {
  const shop = await box.call("POST", "/api/v1/agents/", { token: hqToken, body: { name: "Shop", user_name: "shop1" } });
  await box.call("PUT", `/api/v1/agents/password/${shop.json.data.id}`, { token: hqToken, body: { password: "shop-pass-1" } });
  await box.call("POST", "/api/v1/employees/", { token: hqToken, body: { agent_id: shop.json.data.id, full_name: "Shop admin", role: "admin", pin: 3001 } });
  return box.employeeToken(3001, await box.agentToken("shop1", "shop-pass-1"));
}

test("HQ staff import from the screen with progress; the address is checked; a shop admin may not", async () => {
  const dst = await testBox({ env: { IRONBOX_IMPORT_ALLOW_LOOPBACK: "1" } });
  const strict = await testBox({});
  try {
    const token = await dst.employeeToken(ADMIN.pin);
    const body = { from: served.url, user: ADMIN.user, password: ADMIN.password, pin: ADMIN.pin };

    // The attack: a shop's admin points the box at an address of their choosing.
    const shop = await shopAdmin(strict, await strict.employeeToken(ADMIN.pin));
    expect((await strict.call("POST", "/api/v1/import/", { token: shop, body })).status).toBe(403);
    expect((await strict.call("GET", "/api/v1/export/", { token: shop })).status).toBe(403);
    // The attack: metadata and the box's own loopback as the "old system".
    const strictHq = await strict.employeeToken(ADMIN.pin);
    const meta = await strict.call("POST", "/api/v1/import/", { token: strictHq, body: { ...body, from: "http://169.254.169.254/latest" } });
    expect(meta.status).toBe(422);
    expect(meta.json.message).toContain("link-local");
    const self = await strict.call("POST", "/api/v1/import/", { token: strictHq, body });
    expect(self.status).toBe(422);
    expect(self.json.message).toContain("loopback");
    expect((await strict.call("POST", "/api/v1/import/", { token: strictHq, body: { ...body, from: "file:///etc/passwd" } })).status).toBe(422);

    // The control: HQ's admin imports; the request answers at once and the status moves on.
    const started = await dst.call("POST", "/api/v1/import/", { token, body });
    expect(started.status).toBe(200);
    expect(started.json.data.state).toBe("running");
    expect((await dst.call("POST", "/api/v1/import/", { token, body })).status).toBe(409);
    let status = started.json.data;
    const views: unknown[] = [];
    for (let i = 0; i < 600 && status.state === "running"; i++) {
      await Bun.sleep(100);
      status = (await dst.call("GET", "/api/v1/import/", { token })).json.data;
      if (status.progress) views.push(status.progress);
    }
    expect(status.state).toBe("done");
    expect(views.length).toBeGreaterThan(0);
    expect(status.progress).toMatchObject({ step: "15/15 tickets", percent: 100 });
    expect(status.report.money.equal_to_source).toBe(true);
    expect(status.pins.length).toBe(8);
    // The PINs are given once.
    expect((await dst.call("GET", "/api/v1/import/", { token })).json.data.pins).toEqual([]);
    const n = await dst.database.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM tickets`);
    expect(n[0]!.n).toBe((await src.database.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM tickets`))[0]!.n);
  } finally {
    dst.close();
    strict.close();
  }
}, 180_000);

test("the export zip holds one CSV per table (BOM, RFC 4180, formula-safe) and a consistent copy of the database", async () => {
  const token = await src.employeeToken(ADMIN.pin);
  const risky = await src.call("POST", "/api/v1/customers/", { token, body: { full_name: '=HYPERLINK("http://x","y")', mobile: "79111222" } });
  expect(risky.status).toBe(200);
  // The bytes, through the app (the harness reads text).
  const raw = await src.app.handle(new Request("http://localhost/api/v1/export/", { headers: { authorization: `token ${token}` } }));
  expect(raw.status).toBe(200);
  expect(raw.headers.get("content-type")).toBe("application/zip");
  const dir = mkdtempSync(join(tmpdir(), "ironbox-export-"));
  try {
    await Bun.write(join(dir, "x.zip"), await raw.arrayBuffer());
    const unzip = Bun.spawnSync(["unzip", "-q", join(dir, "x.zip"), "-d", dir]);
    expect(unzip.exitCode).toBe(0);
    const bytes = new Uint8Array(await Bun.file(join(dir, "csv/customers.csv")).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the BOM
    const rows = parse(Buffer.from(bytes), { columns: true, bom: true }) as Record<string, string>[];
    const count = (await src.database.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM customers`))[0]!.n;
    expect(rows.length).toBe(count);
    expect(rows.find((r) => r.id === String(risky.json.data.id))!.full_name).toBe(`'=HYPERLINK("http://x","y")`);
    const tickets = parse(Buffer.from(await Bun.file(join(dir, "csv/tickets.csv")).arrayBuffer()), { columns: true, bom: true }) as unknown[];
    const copy = new Database(join(dir, "ironbox.db"), { readonly: true });
    expect((copy.query("SELECT count(*) AS n FROM tickets").get() as { n: number }).n).toBe(tickets.length);
    expect((copy.query("SELECT count(*) AS n FROM customers").get() as { n: number }).n).toBe(count);
    // The box's token secret and sessions do not leave with the data.
    expect(copy.query("SELECT * FROM box_settings WHERE key = 'token_secret'").all()).toEqual([]);
    expect((copy.query("SELECT count(*) AS n FROM sessions").get() as { n: number }).n).toBe(0);
    copy.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);

test("npm run export writes the zip 0600: every shop's customers and the PIN hashes are not for every user of the box", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ironbox-export-mode-"));
  const previous = process.umask(0o022); // the usual umask, under which a plain file comes out 0644
  try {
    const out = join(dir, "box.zip");
    const run = Bun.spawnSync([process.execPath, join(import.meta.dir, "../../../scripts/export.ts"), out], {
      env: { ...process.env, IRONBOX_DATA_DIR: src.dir, DATABASE_URL: "" },
    });
    expect(run.stderr.toString()).toBe("");
    expect(run.exitCode).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(statSync(out).size).toBeGreaterThan(1000);
  } finally {
    process.umask(previous);
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
