import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { type Database, migrateDatabase, openDatabase } from "./client";
import { inJsonList, prepared } from "./prepared";
import { ticketStates } from "./schema";

let a: Database;
let b: Database;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "ironbox-prepared-"));
  a = await openDatabase(`file:${join(dir, "a.db")}`);
  b = await openDatabase(`file:${join(dir, "b.db")}`);
  for (const d of [a, b]) await migrateDatabase(d);
});
afterAll(() => {
  a.close();
  b.close();
});

type Q = Database["db"];
let builds = 0;
const byName = prepared((q: Q) => {
  builds++;
  return q
    .select({ name: ticketStates.name })
    .from(ticketStates)
    .where(eq(ticketStates.name, sql.placeholder("name")))
    .prepare();
});
const byNames = prepared((q: Q) =>
  q.select({ name: ticketStates.name }).from(ticketStates).where(inJsonList(ticketStates.name, "names")).orderBy(ticketStates.name).prepare(),
);

/**
 * Issue 33: a query built once runs on the session it is given. Inside a transaction it must see
 * that transaction's writes and go with its rollback; bound to the first db it was built on, it
 * would read another connection (and a write would wait on the transaction's own lock).
 */
test("a query built once runs in the caller's transaction, on the caller's database, and is built only once", async () => {
  await a.db.transaction(async (tx) => {
    await tx.insert(ticketStates).values({ name: "ONLY IN TX", position: 999 });
    expect(await byName(tx as unknown as Q).all({ name: "ONLY IN TX" })).toEqual([{ name: "ONLY IN TX" }]);
    // Outside the transaction (another connection, WAL): not there yet.
    expect(await byName(a.db).all({ name: "ONLY IN TX" })).toEqual([]);
  });
  expect(await byName(a.db).all({ name: "ONLY IN TX" })).toEqual([{ name: "ONLY IN TX" }]);
  // Rolled back with its transaction.
  await expect(
    a.db.transaction(async (tx) => {
      await tx.insert(ticketStates).values({ name: "ROLLED BACK", position: 998 });
      expect(await byName(tx as unknown as Q).all({ name: "ROLLED BACK" })).toHaveLength(1);
      throw new Error("undo");
    }),
  ).rejects.toThrow("undo");
  expect(await byName(a.db).all({ name: "ROLLED BACK" })).toEqual([]);
  // Another database (a second box in the same process) reads its own file.
  expect(await byName(b.db).all({ name: "ONLY IN TX" })).toEqual([]);
  expect(builds).toBe(1);
});

test("a JSON list parameter matches like IN: any length, duplicates once, an empty list nothing", async () => {
  await a.db.insert(ticketStates).values([
    { name: "LIST A", position: 990 },
    { name: "LIST B", position: 991 },
  ]);
  expect(await byNames(a.db).all({ names: JSON.stringify(["LIST B", "LIST A", "LIST A", "NONE"]) })).toEqual([{ name: "LIST A" }, { name: "LIST B" }]);
  expect(await byNames(a.db).all({ names: "[]" })).toEqual([]);
  const many = Array.from({ length: 5000 }, (_, i) => `X${i}`).concat("LIST B");
  expect(await byNames(a.db).all({ names: JSON.stringify(many) })).toEqual([{ name: "LIST B" }]);
});
