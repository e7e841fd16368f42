// Issue 26 "Done when": the demo box, served over HTTP on loopback, is the old system; an
// empty box imports it and every record is compared through both boxes' APIs.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { itemCode, ticketCode } from "../../domain/scancodes";
import type { TestBox } from "../../test/harness";
import { ADMIN, importInto, type Served, serve, testBox } from "./testkit";
import { checkPaymentSums } from "../money/check";

let src: TestBox;
let served: Served;
let srcToken: string;
/** The demo's tickets, CREATED ones (left out of the ticket list) included. */
let TICKETS: number;

beforeAll(async () => {
  src = await testBox({ demo: true });
  served = serve(src);
  srcToken = await src.employeeToken(ADMIN.pin);
  TICKETS = (await src.database.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM tickets`))[0]!.n;
  expect(TICKETS).toBeGreaterThan(30);
}, 60_000);
afterAll(() => {
  served.stop();
  src.close();
});

const get = async (box: TestBox, token: string, path: string) => {
  const r = await box.call("GET", `/api/v1${path}`, { token });
  expect(r.status, path).toBe(200);
  return r.json.data;
};

/** Fields that are this box's own, not the record's: a password is not readable, a signature is stored again. */
const OWN = new Set(["password_set", "signature_id"]);
const strip = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(strip)
    : v && typeof v === "object"
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => !OWN.has(k))
            .map(([k, x]) => [k, strip(x)]),
        )
      : v;

/**
 * Privileges are the box's own (issue 32): every employee imported comes without the HQ flag,
 * and a new admin of the box's head office (agent 1 on both) as a manager. The box's own first
 * admin (employee 1 on both) keeps theirs. Applied to the source's answers before comparing.
 */
const asImported = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(asImported)
    : v && typeof v === "object"
      ? (() => {
          const o = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asImported(x)])) as Record<string, unknown>;
          if (!("role" in o && "hq" in o && "full_name" in o) || o.id === 1) return o;
          return { ...o, hq: false, role: o.agent_id === 1 && o.role === "admin" ? "manager" : o.role };
        })()
      : v;

/** Every record of the source, through its API, equals the target's. */
async function expectSameAsSource(dst: TestBox, dstToken: string) {
  const lists = [
    "/agents/",
    "/employees/",
    "/localities/",
    "/address/",
    "/preferences/",
    "/customers/?limit=200",
    "/actions/",
    "/garmentCategories/",
    "/garmentSubCategories/",
    "/actionGarmentSubCategories/",
    "/modifiers/",
    "/ticketStates/",
    "/configurations/",
    "/pickupDeliveries/",
    "/tickets/?limit=200&withChildren=true",
  ];
  for (const path of lists) expect(strip(await get(dst, dstToken, path)), path).toEqual(strip(asImported(await get(src, srcToken, path))));
  for (const l of await get(src, srcToken, "/localities/"))
    expect(await get(dst, dstToken, `/streets/locality/${l.id}`)).toEqual(await get(src, srcToken, `/streets/locality/${l.id}`));
  for (const c of await get(src, srcToken, "/customers/?limit=200")) {
    const path = `/customers/${c.id}`;
    expect(strip(await get(dst, dstToken, path)), path).toEqual(strip(asImported(await get(src, srcToken, path))));
  }
  const ids = (await src.database.db.all<{ id: number }>(sql`SELECT id FROM tickets ORDER BY id`)).map((r) => r.id);
  expect(ids.length).toBeGreaterThan(30);
  for (const id of ids) {
    const path = `/tickets/${id}`;
    expect(strip(await get(dst, dstToken, path)), path).toEqual(strip(await get(src, srcToken, path)));
  }
}

async function emptyTarget() {
  const dst = await testBox({});
  return { dst, token: await dst.employeeToken(ADMIN.pin) };
}

test("the demo box imports into an empty box record for record, and its labels scan there", async () => {
  const { dst, token } = await emptyTarget();
  try {
    const seen: string[] = [];
    const report = await importInto(dst, served.url, { onProgress: (p) => seen.push(p.kind) });
    expect(report.refusals).toEqual([]);
    // The demo's HQ flags (Maria, Mark) and HQ admin (Maria) are not taken: the report says so.
    expect(report.skipped.map((x) => `${x.id} ${x.field} ${x.source}→${x.kept}`).sort()).toEqual([
      "2 hq true→false",
      "2 role admin→manager",
      "5 hq true→false",
    ]);
    expect(report.money).toMatchObject({ tickets: TICKETS, equal_to_source: true, refused_for_money: 0 });
    expect(report.kinds.ticket).toMatchObject({ read: TICKETS, new: TICKETS, refused: 0 });
    expect(seen).toContain("ticket");
    // What was paid arrives as payment rows of tender "other", and every paid amount is the sum of its rows.
    expect(await checkPaymentSums(async (q) => (await dst.database.client.execute(q)).rows.map((r) => Object.values(r)))).toEqual([]);
    const tenders = await dst.database.db.all<{ tender: string }>(sql`SELECT DISTINCT tender FROM payments`);
    expect(tenders.map((t) => t.tender)).toEqual(["other"]);
    // A new PIN for every employee new to this box, and it logs in; none is stored in the run's report.
    expect(report.pins.length).toBe(8);
    const p = report.pins.find((x) => x.agent_id === 2)!;
    const agentRow = await src.database.db.all<{ user_name: string }>(sql`SELECT user_name FROM agents WHERE id = 2`);
    expect(agentRow.length).toBe(1);
    const stored = await dst.database.db.all<{ report: string }>(sql`SELECT report FROM import_runs`);
    expect(stored[0]!.report).not.toContain(p.pin);

    await expectSameAsSource(dst, token);

    // Every label the demo prints: ticket codes and each item's label per piece.
    const items = await src.database.db.all<{ id: number; ticket_id: number; description: string; pieces: string }>(
      sql`SELECT id, ticket_id, description, pieces FROM ticket_sub_categories`,
    );
    const codes = [
      ...[...new Set(items.map((i) => i.ticket_id))].map(ticketCode),
      // The label's QR (drivers/printers/label.ts labelQr): one per piece.
      ...items.flatMap((i) =>
        (i.pieces ? i.pieces.split(",") : [""]).map((piece) => itemCode({ itemId: i.id, desc: i.description, ticketId: i.ticket_id, piece })),
      ),
    ];
    expect(codes.length).toBeGreaterThan(100);
    for (const code of codes) {
      const path = `/tracking/scan?code=${encodeURIComponent(code)}`;
      expect(await get(dst, token, path), code).toEqual(await get(src, srcToken, path));
    }

    // New records continue after the highest imported id.
    const created = await dst.call("POST", "/api/v1/customers/", { token, body: { full_name: "New Customer", mobile: "79000001" } });
    expect(created.status).toBe(200);
    const max = await src.database.db.all<{ m: number }>(sql`SELECT max(id) AS m FROM customers`);
    expect(created.json.data.id).toBe(max[0]!.m + 1);
  } finally {
    dst.close();
  }
}, 120_000);

test("a second run brings exactly what changed at the source", async () => {
  const { dst, token } = await emptyTarget();
  try {
    await importInto(dst, served.url);
    const again = await importInto(dst, served.url);
    for (const [kind, c] of Object.entries(again.kinds)) expect(c!.new + c!.changed, kind).toBe(0);

    // Three changes at the source: a customer's name, an action's price, a ticket paid in full.
    const cust = (await get(src, srcToken, "/customers/?limit=1"))[0];
    expect((await src.call("PUT", `/api/v1/customers/${cust.id}`, { token: srcToken, body: { full_name: "Renamed Person" } })).status).toBe(200);
    expect((await src.call("PUT", "/api/v1/actions/4", { token: srcToken, body: { up_charge: 13.5 } })).status).toBe(200);
    const open = (
      await src.database.db.all<{ id: number }>(sql`SELECT id FROM tickets WHERE total_paid < total AND confirmed_at IS NOT NULL ORDER BY id LIMIT 1`)
    )[0]!;
    expect((await src.call("PUT", `/api/v1/tickets/paidFor/${open.id}`, { token: srcToken })).status).toBe(200);

    const delta = await importInto(dst, served.url);
    const changed = Object.fromEntries(
      Object.entries(delta.kinds)
        .filter(([, c]) => c!.new + c!.changed > 0)
        .map(([k, c]) => [k, c!.new + c!.changed]),
    );
    expect(changed).toEqual({ customer: 1, action: 1, ticket: 1 });
    expect(delta.refusals).toEqual([]);
    await expectSameAsSource(dst, token);
  } finally {
    dst.close();
  }
}, 120_000);

test("an import stopped halfway resumes to the same result without duplicates", async () => {
  const { dst, token } = await emptyTarget();
  try {
    const stop = new AbortController();
    const first = importInto(dst, served.url, {
      pageSize: 10,
      signal: stop.signal,
      onProgress: (p) => p.kind === "ticket" && p.done >= 10 && stop.abort(),
    });
    await expect(first).rejects.toThrow("import stopped");
    const half = await dst.database.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM tickets`);
    expect(half[0]!.n).toBeGreaterThan(0);
    expect(half[0]!.n).toBeLessThan(TICKETS);

    const rest = await importInto(dst, served.url, { pageSize: 10 });
    expect(rest.kinds.ticket!.unchanged).toBe(half[0]!.n);
    expect(rest.kinds.ticket!.new).toBe(TICKETS - half[0]!.n);
    expect(rest.kinds.employee!.new).toBe(0); // no second PIN for anyone
    await expectSameAsSource(dst, token);
    const runs = await dst.database.db.all<{ status: string }>(sql`SELECT status FROM import_runs ORDER BY id`);
    expect(runs.map((r) => r.status)).toEqual(["failed", "done"]);
  } finally {
    dst.close();
  }
}, 120_000);
