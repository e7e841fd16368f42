import { afterAll, beforeAll, expect, test } from "bun:test";
import { type TestBox, testBox } from "../test/harness";
import { DISK_FULL, storageFailure } from "./errors";

/**
 * Disk full (QUALITY.md, reliability): a write the database has no room for answers 507 with
 * a message a person reads, leaves nothing half written, and once there is room again the
 * box serves writes without a restart. The database is made really full: `PRAGMA
 * max_page_count` caps the file, so SQLite fails the write with SQLITE_FULL as it does on a
 * full disk (scripts/faults/disk-full.ts does the same on a real, small filesystem).
 */
let box: TestBox;
let token: string;
let garment: number;
let customer: number;
beforeAll(async () => {
  box = await testBox({ demo: true });
  token = await box.employeeToken(9999);
  garment = (await box.call("GET", "/api/v1/garmentSubCategories/", { token })).json.data.find((g: { name: string }) => g.name === "Shirt").id;
  customer = (await box.call("POST", "/api/v1/customers/", { token, body: { full_name: "Disk Full" } })).json.data.id;
});
afterAll(() => box.close());

const count = async (sql: string) => Number((await box.database.client.execute(sql)).rows[0]![0]);
const maxPages = (n: number) => box.database.client.execute(`PRAGMA max_page_count=${n}`);

test("storageFailure: SQLITE_FULL is 507, an I/O error 503, anything else is not a storage failure", () => {
  expect(storageFailure({ message: "Failed query", cause: { code: "SQLITE_FULL", extendedCode: "SQLITE_FULL" } })?.status).toBe(507);
  expect(storageFailure({ cause: { code: "SQLITE_IOERR", extendedCode: "SQLITE_IOERR_WRITE" } })?.status).toBe(503);
  expect(storageFailure({ cause: { code: "SQLITE_CONSTRAINT" } })).toBeNull();
  expect(storageFailure(new Error("x"))).toBeNull();
});

test("a full database: counter writes answer 507 'The box's disk is full', nothing is half written, and writes work again once there is room", async () => {
  const pages = await count("PRAGMA page_count");
  await maxPages(pages + 30);
  const acked: number[] = [];
  const refusals: { status: number; message: string }[] = [];
  // Bounded: the cap is ~120 KB over the current size; a ticket with its items takes a few KB.
  for (let i = 0; i < 400 && refusals.length < 5; i++) {
    const t = await box.call("POST", "/api/v1/tickets/", { token, body: { customer_id: customer } });
    if (t.status !== 200) {
      refusals.push({ status: t.status, message: t.json.message });
      continue;
    }
    const item = await box.call("POST", "/api/v1/ticketSubCategory/", { token, body: { ticket_id: t.json.data.id, garment_sub_category_id: garment } });
    if (item.status !== 200) refusals.push({ status: item.status, message: item.json.message });
    acked.push(t.json.data.id);
  }
  expect(refusals.length).toBeGreaterThan(0);
  for (const r of refusals) expect(r).toEqual({ status: 507, message: DISK_FULL });
  expect(DISK_FULL).toStartWith("The box's disk is full");

  // Nothing half written: every ticket is one the box acknowledged, and each total is its items' sum.
  expect(await count(`SELECT count(*) FROM tickets WHERE customer_id = ${customer}`)).toBe(acked.length);
  expect(
    await count(
      `SELECT count(*) FROM tickets t WHERE customer_id = ${customer} AND total != (SELECT coalesce(sum(total), 0) FROM ticket_sub_categories WHERE ticket_id = t.id) + pickup_charge + delivery_charge`,
    ),
  ).toBe(0);

  // Room again (no restart): the same session writes, and the database is sound.
  await maxPages(1_073_741_823);
  const after = await box.call("POST", "/api/v1/tickets/", { token, body: { customer_id: customer } });
  expect(after.status).toBe(200);
  const item = await box.call("POST", "/api/v1/ticketSubCategory/", { token, body: { ticket_id: after.json.data.id, garment_sub_category_id: garment } });
  expect(item.status).toBe(200);
  expect(String((await box.database.client.execute("PRAGMA integrity_check")).rows[0]![0])).toBe("ok");
}, 60_000);
