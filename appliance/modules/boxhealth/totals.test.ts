// Issue 31: the box's daily database check also proves the ledger's invariant (every paid
// total equals its payment rows) and the health panel shows a failure with the count and the
// first ids. The database refuses such a write (migration 0014), so the damage is made as an
// old or damaged file would hold it: with the guards dropped.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { checkIntegrity } from "./integrity";
import { createBoxHealthService } from "./service";

let box: TestBox;
let admin: string;
beforeAll(async () => {
  box = await testBox({ demo: true });
  admin = await box.employeeToken(ADMIN.pin);
});
afterAll(() => box.close());

const service = () =>
  createBoxHealthService({
    db: box.database.db,
    clock: box.clock,
    version: "9.9.9",
    dataDir: box.dir,
    dbFile: box.database.file,
    printers: async () => [],
    printerOutcomes: async () => new Map(),
    guns: async () => [],
    link: () => ({ state: "ok", lag_seconds: 0, last_shipped_at: null, last_error: null, warn_after_seconds: 300 }),
    certificate: () => null,
    disk: () => ({ free: 50, total: 100 }),
    log: () => {},
  });
const run = (sql: string, args: (string | number)[] = []) => box.database.client.execute({ sql, args });
const firstPaid = async (table: string) => Number((await run(`SELECT id FROM ${table} WHERE total_paid > 0 ORDER BY id LIMIT 1`)).rows[0]!.id);

test("the daily check proves every paid total against its rows, and the panel shows totals that differ", async () => {
  const ok = await service().runCheck();
  expect(ok).toMatchObject({ ok: true, result: "ok", totals: { ok: true, count: 0, first: [] } });

  const ticket = await firstPaid("tickets");
  const item = Number((await run("SELECT id FROM ticket_sub_categories WHERE total_paid > 0 AND ticket_id <> ? ORDER BY id LIMIT 1", [ticket])).rows[0]!.id);
  await expect(run("UPDATE tickets SET total_paid = total_paid + 100 WHERE id = ?", [ticket])).rejects.toThrow(/total_paid must equal/);
  await run("DROP TRIGGER tickets_total_paid_update");
  await run("DROP TRIGGER ticket_sub_categories_total_paid_update");
  await run("UPDATE tickets SET total_paid = total_paid + 100 WHERE id = ?", [ticket]);
  await run("UPDATE ticket_sub_categories SET total_paid = total_paid - 1 WHERE id = ?", [item]);

  const bad = await service().runCheck();
  expect(bad).toMatchObject({ ok: false, totals: { ok: false, count: 2, first: [`ticket ${ticket}`, `item ${item}`] } });
  expect(bad!.result).toMatch(new RegExp(`^2 paid totals differ from the payment rows \\(ticket ${ticket}: €[\\d.]+ for €[\\d.]+ in rows; item ${item}: `));

  // The panel, through the API, as the admin sees it.
  const h = (await box.call("GET", "/api/v1/box/health", { token: admin })).json.data;
  expect(h.database.integrity).toMatchObject({ ok: false, totals: { count: 2, first: [`ticket ${ticket}`, `item ${item}`] } });
  const attention = h.needs_attention.find((a: { what: string }) => a.what === "integrity");
  expect(attention.message).toContain(`found a problem: 2 paid totals differ from the payment rows (ticket ${ticket}`);

  // The file itself is sound: SQLite's own check alone would have passed it.
  expect((await box.database.client.execute("PRAGMA integrity_check")).rows[0]![0]).toBe("ok");
  expect((await checkIntegrity(box.database.file!, () => box.clock.now())).result).toBe(bad!.result);
});
