import { afterAll, beforeAll, expect, test } from "bun:test";
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { checkIntegrity } from "./integrity";
import { createBoxHealthService } from "./service";

/**
 * The box's health panel: admins only; every printer with its state and last good job; and
 * what needs a person (printer offline, disk under 10 %, HQ link behind, a failed database
 * check, a certificate about to expire), each case made real or injected as a dependency.
 */
let box: TestBox;
let admin: string;
beforeAll(async () => {
  box = await testBox({ demo: true });
  admin = await box.employeeToken(ADMIN.pin);
});
afterAll(() => box.close());

const health = (token?: string) => box.call("GET", "/api/v1/box/health", { token });

test("only admins see the box's health", async () => {
  expect((await health()).status).toBe(401);
  const agent = await box.agentToken("birkirkara", "shop-demo-2026");
  expect((await health(await box.employeeToken(6666, agent))).status).toBe(403); // employee
  expect((await health(await box.employeeToken(2222))).status).toBe(403); // manager
  expect((await health(await box.employeeToken(5555, agent))).status).toBe(200); // a shop's admin
  expect((await health(admin)).status).toBe(200);
});

test("a healthy box: version, uptime, disk, database size, no link, no backup, nothing needs a person", async () => {
  const h = (await health(admin)).json.data;
  expect(h.version).toMatch(/^\d+\.\d+\.\d+/);
  expect(h.uptime_seconds).toBe(0); // the injected clock has not moved
  expect(h.disk.total_bytes).toBeGreaterThan(h.disk.free_bytes);
  expect(h.disk.free_bytes).toBeGreaterThan(0);
  expect(h.database.bytes).toBeGreaterThan(100_000);
  expect(h.database.integrity).toBeNull();
  expect(h.link.state).toBe("off");
  expect(h.backup).toBeNull();
  expect(h.certificate).toBeNull();
  expect(h.printers).toEqual([]);
  expect(h.needs_attention).toEqual([]);
});

test("printers: the last good print, and an unplugged printer needs a person", async () => {
  mkdirSync(join(box.dir, "dev/usb"), { recursive: true });
  writeFileSync(join(box.dir, "dev/usb/lp3"), "");
  const saved = await box.call("PUT", "/api/v1/printers/", {
    token: admin,
    body: [{ id: "gone", name: "Back room", language: "ESCPOS", target: { kind: "usblp", path: join(box.dir, "dev/usb/lp9") } }],
  });
  expect(saved.status).toBe(200);
  let h = (await health(admin)).json.data;
  expect(h.printers).toEqual([{ id: "gone", name: "Back room", state: "offline", last_ok_at: null, last_error: null }]);
  expect(h.needs_attention).toEqual([{ what: "printer", message: 'Printer "Back room" is not connected: check its cable and power' }]);

  // A job that failed names its reason; one that printed is the printer's last good print.
  await box.call("POST", "/api/v1/printers/gone/test", { token: admin });
  await box.journal.idle();
  h = (await health(admin)).json.data;
  expect(h.printers[0].last_error).toContain("lp9 is missing");
  await box.call("PUT", "/api/v1/printers/", {
    token: admin,
    body: [{ id: "gone", name: "Back room", language: "ESCPOS", target: { kind: "usblp", path: join(box.dir, "dev/usb/lp3") } }],
  });
  const retried = await box.call("POST", "/api/v1/printers/gone/test", { token: admin });
  expect(retried.status).toBe(200);
  await box.journal.idle();
  h = (await health(admin)).json.data;
  expect(h.printers[0]).toMatchObject({ last_ok_at: box.clock.now().toISOString(), last_error: null });
  await box.call("PUT", "/api/v1/printers/", { token: admin, body: [] });
});

test("needs a person: disk under 10 %, HQ behind or down, a failed check, a certificate expiring within 30 days", async () => {
  let link = {
    state: "ok" as "ok" | "lagging" | "down",
    lag_seconds: 12 as number | null,
    last_shipped_at: null,
    last_error: null as string | null,
    warn_after_seconds: 300,
  };
  let cert = { expires_at: "2027-01-01T00:00:00.000Z", names: ["ironbox-birkirkara.local"] };
  let disk = { free: 11, total: 100 };
  const service = createBoxHealthService({
    db: box.database.db,
    clock: box.clock,
    version: "9.9.9",
    dataDir: box.dir,
    dbFile: box.database.file,
    printers: async () => [],
    printerOutcomes: async () => new Map(),
    guns: async () => [{ id: "g1", name: "Counter gun", status: "offline", detail: "unplugged", last_scan_at: null }],
    link: () => link,
    certificate: () => cert,
    disk: () => disk,
    log: () => {},
  });
  const whats = async () => (await service.health()).needs_attention;
  expect(await whats()).toEqual([{ what: "gun", message: 'Barcode gun "Counter gun" is not connected (unplugged)' }]);

  disk = { free: 9, total: 100 };
  link = { ...link, state: "lagging", lag_seconds: 900 };
  cert = { ...cert, expires_at: "2026-12-10T00:00:00.000Z" }; // the clock says 2026-11-22
  expect((await whats()).slice(1)).toEqual([
    { what: "disk", message: "The box's disk is nearly full: 9 % free. Free space before it fills" },
    { what: "link", message: "Head-quarters is 15 minutes behind this box" },
    { what: "certificate", message: "The box's certificate expires on 2026-12-10" },
  ]);
  link = { ...link, state: "down", last_error: "HQ is not answering" };
  expect((await whats()).find((a) => a.what === "link")?.message).toBe("The link to head-quarters is down: HQ is not answering");

  // The real check, in its own process, on the box's database: ok, recorded, shown.
  const ok = await service.runCheck();
  expect(ok).toMatchObject({ ok: true, result: "ok", checked_at: box.clock.now().toISOString() });
  expect((await service.health()).database.integrity).toEqual(ok);
  expect((await whats()).some((a) => a.what === "integrity")).toBe(false);
});

test("the database check finds a damaged file, and says so without taking the box down", async () => {
  const file = join(box.dir, "damaged.db");
  const db = createClient({ url: `file:${file}` });
  await db.executeMultiple("CREATE TABLE t (x TEXT); CREATE INDEX t_x ON t (x)");
  await db.batch(Array.from({ length: 2000 }, (_, i) => ({ sql: "INSERT INTO t VALUES (?)", args: [`row ${i} ${"x".repeat(50)}`] })));
  db.close();
  // Scribble over a page in the middle of the index.
  const fd = openSync(file, "r+");
  writeSync(fd, Buffer.alloc(2000, 0x41), 0, 2000, 4096 * 30 + 100);
  closeSync(fd);
  const r = await checkIntegrity(file, () => box.clock.now());
  expect(r.ok).toBe(false);
  expect(r.result).toMatch(/malformed|corrupt|Tree|Page/i);
  expect((await checkIntegrity(box.database.file!, () => box.clock.now())).ok).toBe(true);
});
