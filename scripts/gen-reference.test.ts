import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hashPin } from "../appliance/modules/auth/secrets";
import { checkPaymentSums } from "../appliance/modules/money/check";
import { expectTotalsGuarded } from "../appliance/test/totalsGuard";
import { openDatabase } from "../db/client";
import { ticketsOffPrice } from "./faults/lib";
import { GENERATED_TABLES, generateReference, parseArgs, type RefOptions } from "./gen-reference";

const SMALL = { customers: 200, tickets: 1000, items: 4000, logs: 6000 };
const NOW = new Date("2026-11-22T00:00:00Z");
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "ironbox-ref-"));
  dirs.push(d);
  return d;
};
const opts = (dataDir: string, extra: Partial<RefOptions> = {}): RefOptions => ({ dataDir, ...SMALL, seed: 7, now: NOW, log: () => {}, ...extra });

let first: Awaited<ReturnType<typeof generateReference>>;
let db: Database;
let walBytes = -1;
const all = (sql: string) => db.query(sql).all() as Record<string, any>[];
const one = (sql: string) => db.query(sql).get() as Record<string, any>;

beforeAll(async () => {
  first = await generateReference(opts(tempDir()));
  walBytes = existsSync(`${first.path}-wal`) ? statSync(`${first.path}-wal`).size : 0;
  db = new Database(first.path, { readonly: true });
});
afterAll(() => {
  db?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test("the requested counts, demo rows included, with 5 agents and 20 employees", () => {
  expect(first.counts).toMatchObject({ agents: 5, employees: 20, customers: 200, tickets: 1000, ticket_sub_categories: 4000, item_log_states: 6000 });
  expect(first.counts.ticket_sub_category_actions).toBeGreaterThanOrEqual(4000);
  expect(first.counts.ticket_sub_category_modifiers).toBeGreaterThan(0);
  expect(first.counts.ticket_log_states).toBeGreaterThanOrEqual(1000);
  expect(one("SELECT count(*) AS n FROM ticket_states").n).toBe(16);
});

test("every ticket's and item's total_paid equals its payment rows (issue 24)", async () => {
  expect(await checkPaymentSums((sql) => db.query(sql).values() as unknown[][])).toEqual([]);
  expect(one("SELECT count(*) AS n FROM payments").n).toBeGreaterThan(100);
  expect(one("SELECT count(*) AS n FROM tickets WHERE total_paid > 0").n).toBeGreaterThan(100);
});

test("the database refuses a total_paid written over the reference rows; payments and refunds still move it (issue 31)", async () => {
  // Through the box's own driver, as the box would open the generated file.
  const database = await openDatabase(`file:${first.path}`);
  try {
    await expectTotalsGuarded(database.client);
  } finally {
    database.close();
  }
  expect(one("SELECT count(*) AS n FROM payments WHERE ticket_sub_category_id IS NULL").n).toBeGreaterThan(0); // charges paid on the ticket
});

test("integrity_check is ok and every foreign key resolves", () => {
  expect(one("PRAGMA integrity_check").integrity_check).toBe("ok");
  expect(all("PRAGMA foreign_key_check")).toEqual([]);
});

test("the schema's indexes are all there after the load", () => {
  const names = all("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'").map((r) => r.name);
  for (const ix of [
    "tickets_customer_idx",
    "tickets_agent_state_idx",
    "tsc_ticket_idx",
    "tsca_item_idx",
    "tscm_item_idx",
    "ils_item_idx",
    "ils_logged_idx",
    "tls_ticket_idx",
    "customers_mobile_idx",
  ]) {
    expect(names).toContain(ix);
  }
});

test("the file is left in WAL mode with an empty WAL", () => {
  expect(one("PRAGMA journal_mode").journal_mode).toBe("wal");
  expect(walBytes).toBe(0);
});

test("re-pricing every generated ticket with the pricing engine changes nothing", async () => {
  const database = await openDatabase(`file:${first.path}`);
  try {
    expect(await ticketsOffPrice(database)).toEqual([]);
  } finally {
    database.close();
  }
  // The set has what the rule must get right: discounted customers, percentage modifiers, quantities.
  expect(one("SELECT count(*) AS n FROM tickets t JOIN customers c ON c.id = t.customer_id WHERE c.discount > 0").n).toBeGreaterThan(0);
  expect(one("SELECT count(*) AS n FROM ticket_sub_category_modifiers x JOIN modifiers m ON m.id = x.modifier_id WHERE m.is_percentage").n).toBeGreaterThan(0);
  expect(one("SELECT count(*) AS n FROM ticket_sub_categories WHERE quantity > 1").n).toBeGreaterThan(0);
});

test("every item has an action; nothing is paid beyond its total; express items flag their ticket", () => {
  expect(
    all("SELECT id FROM ticket_sub_categories i WHERE NOT EXISTS (SELECT 1 FROM ticket_sub_category_actions a WHERE a.ticket_sub_category_id = i.id)"),
  ).toEqual([]);
  expect(all("SELECT id FROM tickets WHERE total_paid > total")).toEqual([]);
  expect(
    all("SELECT t.id FROM tickets t WHERE has_express_item <> EXISTS (SELECT 1 FROM ticket_sub_categories i WHERE i.ticket_id = t.id AND i.has_express)"),
  ).toEqual([]);
});

test("history is plausible: agents match, customers exist before their tickets, logs end in the item's state", () => {
  expect(all("SELECT t.id FROM tickets t JOIN customers c ON c.id = t.customer_id WHERE c.agent_id <> t.agent_id")).toEqual([]);
  expect(all("SELECT t.id FROM tickets t JOIN customers c ON c.id = t.customer_id WHERE c.created_at > t.created_at")).toEqual([]);
  expect(all(`SELECT id FROM item_log_states WHERE logged_at > '${NOW.toISOString()}'`)).toEqual([]);
  expect(all("SELECT id FROM tickets WHERE (confirmed_at IS NULL) <> (state = 'CREATED')")).toEqual([]);
  expect(
    all(
      `SELECT i.id FROM ticket_sub_categories i WHERE i.state <> (SELECT l.state FROM item_log_states l WHERE l.ticket_sub_category_id = i.id ORDER BY l.logged_at DESC, l.id DESC LIMIT 1)`,
    ),
  ).toEqual([]);
  // Mostly closed, but the last days have work in flight.
  const states = Object.fromEntries(all("SELECT state, count(*) AS n FROM tickets GROUP BY state").map((r) => [r.state, r.n]));
  expect(states.CLOSED).toBeGreaterThan(500);
  expect(states["IN PROGRESS"]).toBeGreaterThan(0);
  expect(states.CREATED).toBeGreaterThan(0);
});

test("derived tables match their sources: customer statistics, search index, triggers back", () => {
  // Independent of db/maintenance.ts: recomputed here from the tickets.
  const drift = all(`SELECT c.id FROM customers c LEFT JOIN customer_stats s ON s.customer_id = c.id
    LEFT JOIN (SELECT customer_id, count(confirmed_at) AS visits, sum(total_paid) AS spent, sum(total) AS total,
                      sum(CASE WHEN confirmed_at IS NOT NULL THEN total - total_paid ELSE 0 END) AS owed, max(confirmed_at) AS last
               FROM tickets GROUP BY customer_id) t ON t.customer_id = c.id
    WHERE coalesce(s.number_of_visits, 0) <> coalesce(t.visits, 0) OR coalesce(s.total_spent, 0) <> coalesce(t.spent, 0)
       OR coalesce(s.ticket_total, 0) <> coalesce(t.total, 0) OR coalesce(s.outstanding_balance, 0) <> coalesce(t.owed, 0)
       OR s.last_visit IS NOT t.last`);
  expect(drift).toEqual([]);
  expect(one("SELECT count(*) AS n FROM customer_stats").n).toBeGreaterThan(100);
  expect(one("SELECT count(*) AS n FROM customers_fts").n).toBe(200);
  expect(one("SELECT count(*) AS n FROM customers_fts WHERE customers_fts MATCH 'amille'").n).toBeGreaterThan(0);
  const triggers = all("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'tickets'");
  expect(triggers.length).toBeGreaterThan(0);
});

test("customers have unique mobiles and names split on the first space", () => {
  expect(one("SELECT count(*) - count(DISTINCT mobile) AS d FROM customers WHERE id > 60").d).toBe(0);
  expect(all("SELECT id FROM customers WHERE first_name || ' ' || last_name <> full_name")).toEqual([]);
});

test("the added employees log in with their PINs", () => {
  const secret = (one("SELECT value FROM box_settings WHERE key = 'token_secret'") as { value: string }).value;
  const sliema = one("SELECT id FROM agents WHERE user_name = 'sliema'").id as number;
  expect(one(`SELECT full_name FROM employees WHERE agent_id = ${sliema} AND pin_hash = '${hashPin(secret, sliema, 1212)}'`)).toMatchObject({
    full_name: "Rebecca Cassar",
  });
});

const contentHash = (path: string) => {
  const d = new Database(path, { readonly: true });
  try {
    const h = createHash("sha256");
    for (const t of GENERATED_TABLES) {
      for (const row of d.query(`SELECT * FROM ${t} ORDER BY rowid`).values()) h.update(JSON.stringify(row));
    }
    return h.digest("hex");
  } finally {
    d.close();
  }
};

test("the same seed gives the same content; another seed does not", async () => {
  const again = await generateReference(opts(tempDir()));
  expect(contentHash(again.path)).toBe(contentHash(first.path));
  const other = await generateReference(opts(tempDir(), { seed: 8 }));
  expect(contentHash(other.path)).not.toBe(contentHash(first.path));
});

test("an existing database is not overwritten without --force", async () => {
  const dir = join(first.path, "..");
  await expect(generateReference(opts(dir))).rejects.toThrow(/--force/);
});

test("command-line options", () => {
  const o = parseArgs(["/tmp/x", "--customers", "10", "--tickets", "1_000", "--now", "2026-01-02T00:00:00Z", "--force"]);
  expect(o).toMatchObject({ customers: 10, tickets: 1000, items: 2_000_000, logs: 3_000_000, force: true });
  expect(o.now.toISOString()).toBe("2026-01-02T00:00:00.000Z");
  expect(() => parseArgs(["/tmp/x", "--tickets", "-1"])).toThrow();
  expect(() => parseArgs(["/tmp/x", "--bogus", "1"])).toThrow(/unknown/);
  expect(() => parseArgs([])).toThrow(/usage/);
});
