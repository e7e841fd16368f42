import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import fc from "fast-check";
import { dayStartUtc } from "../../domain/schedule";
import { type TestBox, testBox } from "../../test/harness";
import { csvRecord, money, neutralise } from "./cells";
import { REPORT_COLUMNS } from "./model";
import { allocate } from "./queries";
import { createReportService } from "./service";

let box: TestBox;
let hq: string;
let shop: string;
const FROM = "2026-01-01";
const TO = "2026-12-31";
const FORMULA = '=HYPERLINK("http://x")';
const MALTESE = "Ċensu Ġużeppi Ħażż";

beforeAll(async () => {
  box = await testBox({ demo: true });
  hq = await box.employeeToken(1111);
  shop = await box.employeeToken(5555, await box.agentToken("birkirkara", "shop-demo-2026"));
  // Two customers with confirmed tickets get names a spreadsheet must not misread.
  const sql = box.database.client;
  const owners = (await sql.execute("SELECT DISTINCT customer_id FROM tickets WHERE confirmed_at IS NOT NULL ORDER BY customer_id LIMIT 2")).rows.map((r) =>
    Number(r[0]),
  );
  await sql.execute({ sql: "UPDATE customers SET full_name = ? WHERE id = ?", args: [FORMULA, owners[0]!] });
  await sql.execute({ sql: "UPDATE customers SET full_name = ? WHERE id = ?", args: [MALTESE, owners[1]!] });
});
afterAll(() => box.close());

/** The head-quarters admin, for tests that call the report service directly. */
const HQ_CALLER = {
  kind: "employee",
  jti: "t",
  agent: { id: 1, name: "HQ", is_hq: true },
  employee: { id: 1, full_name: "A", role: "admin", hq: true },
} as const;
const get = (path: string, token = hq, signal?: AbortSignal) =>
  box.app.handle(new Request(`http://localhost/api/v1${path}`, { headers: { authorization: `token ${token}` }, signal }));

/** A CSV report parsed back by csv-parse: header and records. */
async function csv(path: string, token = hq) {
  const res = await get(path, token);
  expect(res.status).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = parse(Buffer.from(bytes), { bom: true, relax_column_count: false }) as string[][];
  const [header, ...records] = rows;
  return { res, header: header!, records, col: (name: string) => header!.indexOf(name) };
}
const sum = (records: string[][], i: number) => Math.round(records.reduce((s, r) => s + Number(r[i]) * 100, 0));
const one = async (q: string, args: (string | number)[] = []) => (await box.database.client.execute({ sql: q, args })).rows[0]!;
const range = [dayStartUtc(FROM), dayStartUtc("2027-01-01")];

describe("item report", () => {
  test("rows, totals and commission match the database", async () => {
    const { header, records, col } = await csv(`/tickets/csv/itemReport?from=${FROM}&to=${TO}&commission=15`);
    expect(header).toEqual(REPORT_COLUMNS.itemReport.map((c) => c.header));
    const db = await one(
      "SELECT count(*), sum(coalesce(i.total_override, i.total)), sum(i.total_paid) FROM ticket_sub_categories i JOIN tickets t ON t.id = i.ticket_id WHERE t.confirmed_at >= ? AND t.confirmed_at < ?",
      range,
    );
    expect(records.length).toBe(Number(db[0]));
    expect(records.length).toBeGreaterThan(50);
    expect(sum(records, col("Total"))).toBe(Number(db[1]));
    expect(sum(records, col("Paid"))).toBe(Number(db[2]));
    for (const r of records) {
      const cents = Math.round(Number(r[col("Total")]) * 100);
      expect(r[col("Commission %")]).toBe("15");
      expect(Math.round(Number(r[col("Commission")]) * 100)).toBe(Math.round((cents * 15) / 100));
      expect(r[col("Date")]).toMatch(/^\d{2}-\d{2}-2026$/);
    }
    // Each item's actions (in the order they were added), quantity and express flag, read
    // independently.
    const perItem = (
      await box.database.client.execute(
        "SELECT i.id, (SELECT group_concat(x.name, ', ') FROM (SELECT name FROM ticket_sub_category_actions WHERE ticket_sub_category_id = i.id ORDER BY id) x), i.quantity, i.has_express FROM ticket_sub_categories i",
      )
    ).rows;
    const expected = new Map(perItem.map((r) => [String(r[0]), [String(r[1] ?? ""), String(r[2]), Number(r[3]) ? "Yes" : "No"]]));
    for (const r of records) expect([r[col("Actions")], r[col("Quantity")], r[col("Express")]]).toEqual(expected.get(r[col("Item ID")]!)!);
  });

  test("a shop sees only its own items, without a Shop column", async () => {
    const { header, records } = await csv(`/tickets/csv/itemReport?from=${FROM}&to=${TO}`, shop);
    expect(header).not.toContain("Shop");
    const db = await one(
      "SELECT count(*) FROM ticket_sub_categories i JOIN tickets t ON t.id = i.ticket_id JOIN agents a ON a.id = t.agent_id WHERE a.user_name = 'birkirkara' AND t.confirmed_at >= ? AND t.confirmed_at < ?",
      range,
    );
    expect(records.length).toBe(Number(db[0]));
    expect(records.length).toBeGreaterThan(0);
    // Asking for another shop's id gives nothing more.
    const hqId = Number((await one("SELECT id FROM agents WHERE is_hq = 1"))[0]);
    expect((await get(`/tickets/csv/itemReport?from=${FROM}&to=${TO}&agents=${hqId}`, shop)).status).toBe(204);
  });

  test("states, actions and agents as repeated keys filter the rows", async () => {
    const states = (await box.database.client.execute("SELECT id, name FROM ticket_states WHERE name IN ('CLOSED', 'IN PROGRESS')")).rows.map(
      (r) => [Number(r[0]), String(r[1])] as const,
    );
    const { records, col } = await csv(`/tickets/csv/itemReport?from=${FROM}&to=${TO}&${states.map(([id]) => `states=${id}`).join("&")}`);
    const db = await one(
      "SELECT count(*) FROM ticket_sub_categories i JOIN tickets t ON t.id = i.ticket_id WHERE i.state IN ('CLOSED', 'IN PROGRESS') AND t.confirmed_at >= ? AND t.confirmed_at < ?",
      range,
    );
    expect(records.length).toBe(Number(db[0]));
    for (const r of records) expect(["CLOSED", "IN PROGRESS"]).toContain(r[col("State")]!);

    const [action] = (
      await box.database.client.execute(
        "SELECT action_id, count(DISTINCT ticket_sub_category_id) FROM ticket_sub_category_actions GROUP BY action_id ORDER BY 2 DESC LIMIT 1",
      )
    ).rows;
    const agents = (await box.database.client.execute("SELECT id FROM agents")).rows.map((r) => Number(r[0]));
    const byAction = await csv(`/tickets/csv/itemReport?from=${FROM}&to=${TO}&actions=${action![0]}&${agents.map((a) => `agents=${a}`).join("&")}`);
    const dbAction = await one(
      `SELECT count(*) FROM ticket_sub_categories i JOIN tickets t ON t.id = i.ticket_id WHERE t.confirmed_at >= ? AND t.confirmed_at < ?
       AND EXISTS (SELECT 1 FROM ticket_sub_category_actions x WHERE x.ticket_sub_category_id = i.id AND x.action_id = ?)`,
      [...range, Number(action![0])],
    );
    expect(byAction.records.length).toBe(Number(dbAction[0]));
    expect(byAction.records.length).toBeLessThan((await csv(`/tickets/csv/itemReport?from=${FROM}&to=${TO}`)).records.length);
  });
});

describe("sales and client reports", () => {
  test("sales sum to the tickets' totals and payments; VAT and discounts add up per row", async () => {
    const { header, records, col } = await csv(`/tickets/csv/salesReport?from=${FROM}&to=${TO}`);
    expect(header).toEqual(REPORT_COLUMNS.salesReport.map((c) => c.header));
    const db = await one("SELECT sum(total), sum(total_paid) FROM tickets WHERE confirmed_at >= ? AND confirmed_at < ?", range);
    expect(sum(records, col("Net"))).toBe(Number(db[0]));
    expect(sum(records, col("Paid"))).toBe(Number(db[1]));
    expect(sum(records, col("Outstanding"))).toBe(Number(db[0]) - Number(db[1]));
    const cents = (r: string[], name: string) => Math.round(Number(r[col(name)]) * 100);
    for (const r of records) {
      expect(cents(r, "Gross") - cents(r, "Discounts")).toBe(cents(r, "Net"));
      expect(cents(r, "Net excl. VAT") + cents(r, "VAT 18%")).toBe(cents(r, "Net"));
      expect(cents(r, "Net excl. VAT")).toBe(Math.round(cents(r, "Net") / 1.18));
    }
    // An actions filter keeps only those actions' rows (and no charges).
    const [action] = (
      await box.database.client.execute(
        "SELECT a.id, a.name FROM actions a WHERE EXISTS (SELECT 1 FROM ticket_sub_category_actions x WHERE x.action_id = a.id) LIMIT 1",
      )
    ).rows;
    const only = await csv(`/tickets/csv/salesReport?from=${FROM}&to=${TO}&actions=${action![0]}`);
    expect(new Set(only.records.map((r) => r[only.col("Action")]))).toEqual(new Set([String(action![1])]));
  });

  test("clients: tickets, spending and payments match", async () => {
    const { records, col } = await csv(`/tickets/csv/clientReport?from=${FROM}&to=${TO}`);
    const db = await one(
      "SELECT count(*), sum(total), sum(total_paid), count(DISTINCT customer_id) FROM tickets WHERE confirmed_at >= ? AND confirmed_at < ?",
      range,
    );
    expect(records.length).toBe(Number(db[3]));
    expect(records.reduce((s, r) => s + Number(r[col("Tickets")]), 0)).toBe(Number(db[0]));
    expect(sum(records, col("Spent"))).toBe(Number(db[1]));
    expect(sum(records, col("Paid"))).toBe(Number(db[2]));
    // The formula customer stays text; the Maltese letters arrive intact.
    const names = records.map((r) => r[col("Customer")]);
    expect(names).toContain(`'${FORMULA}`);
    expect(names).not.toContain(FORMULA);
    expect(names).toContain(MALTESE);
  });

  test("the customer screen's statistics agree with the client report over all time", async () => {
    // Spec §2: customer statistics stay as they are; over every day they tell the same story as
    // the report: visits are confirmed tickets, owed is the balance of those tickets.
    const { records, col } = await csv("/tickets/csv/clientReport?from=2000-01-01&to=2030-12-31");
    expect(records.length).toBeGreaterThan(10);
    for (const r of records.slice(0, 25)) {
      const c = (await (await get(`/customers/${r[col("Customer ID")]}`)).json()).data;
      expect([Number(r[col("Tickets")]), Number(r[col("Owed")])]).toEqual([c.number_of_visits, c.outstanding_balance]);
      // The screen counts payments on drafts too; the report counts sales (confirmed tickets).
      expect(Number(r[col("Paid")])).toBeLessThanOrEqual(c.total_spent);
    }
  });

  test("item state changes: count and state filter match the log", async () => {
    const all = await csv(`/tickets/csv/itemStateReport?from=${FROM}&to=${TO}`);
    const db = await one("SELECT count(*) FROM item_log_states WHERE logged_at >= ? AND logged_at < ?", range);
    expect(all.records.length).toBe(Number(db[0]));
    const [state] = (await box.database.client.execute("SELECT s.id, s.name FROM ticket_states s WHERE s.name = 'MARKED'")).rows;
    const marked = await csv(`/tickets/csv/itemStateReport?from=${FROM}&to=${TO}&states=${state![0]}`);
    const dbMarked = await one("SELECT count(*) FROM item_log_states WHERE state = 'MARKED' AND logged_at >= ? AND logged_at < ?", range);
    expect(marked.records.length).toBe(Number(dbMarked[0]));
    for (const r of marked.records) expect(r[marked.col("State")]).toBe("MARKED");
    expect(all.records[0]![all.col("When")]).toMatch(/^\d{2}-\d{2}-\d{4} \d{2}:\d{2}$/);
  });

  test("states by name, as the spec names them (PICKED UP, any case, mixed with ids): the same rows as by id; an unknown name matches nothing", async () => {
    const [picked] = (await box.database.client.execute("SELECT id FROM ticket_states WHERE name = 'PICKED UP'")).rows;
    const [marked] = (await box.database.client.execute("SELECT id FROM ticket_states WHERE name = 'MARKED'")).rows;
    for (const report of ["itemReport", "itemStateReport"]) {
      // Each body is read before the next report starts (two run at once at most).
      const byId = await get(`/tickets/csv/${report}?from=${FROM}&to=${TO}&states=${picked![0]}&states=${marked![0]}`);
      const idText = await byId.text();
      expect(byId.status, report).toBe(200);
      const byName = await get(`/tickets/csv/${report}?from=${FROM}&to=${TO}&states=PICKED%20UP&states=marked`);
      expect(byName.status, report).toBe(200);
      expect(await byName.text(), report).toBe(idText);
      const mixed = await get(`/tickets/csv/${report}?from=${FROM}&to=${TO}&states=PICKED+UP,${marked![0]}`);
      expect(mixed.status, report).toBe(200);
      expect(await mixed.text(), report).toBe(idText);
      expect((await get(`/tickets/csv/${report}?from=${FROM}&to=${TO}&states=NO%20SUCH%20STATE`)).status, report).toBe(204);
      const bad = await get(`/tickets/csv/${report}?from=${FROM}&to=${TO}&states=${"X".repeat(61)}`);
      expect(bad.status, report).toBe(422);
      expect((await bad.json()).message, report).toContain("states");
    }
    const { records, col } = await csv(`/tickets/csv/itemStateReport?from=${FROM}&to=${TO}&states=PICKED%20UP`);
    const dbPicked = await one("SELECT count(*) FROM item_log_states WHERE state = 'PICKED UP' AND logged_at >= ? AND logged_at < ?", range);
    expect(records.length).toBe(Number(dbPicked[0]));
    for (const r of records) expect(r[col("State")]).toBe("PICKED UP");
  });
});

describe("files", () => {
  test("Content-Disposition names the report and its dates; an empty report is 204", async () => {
    const res = await get(`/tickets/csv/clientReport?from=${FROM}&to=${TO}`);
    expect(res.headers.get("content-disposition")).toContain('filename="Client report 01-01-2026 31-12-2026.csv"');
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    await res.arrayBuffer();
    for (const name of ["salesReport", "clientReport", "itemReport", "itemStateReport"]) {
      const empty = await get(`/tickets/csv/${name}?from=2001-01-01&to=2001-01-31`);
      expect(empty.status).toBe(204);
    }
  });

  test("xlsx has typed cells and the same neutralising", async () => {
    const res = await get(`/tickets/csv/itemReport?from=${FROM}&to=${TO}&format=xlsx&commission=10`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain("Item report 01-01-2026 31-12-2026.xlsx");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await res.arrayBuffer()) as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(REPORT_COLUMNS.itemReport.map((c) => c.header));
    const at = (name: string) => header.indexOf(name) + 1;
    const db = await one(
      "SELECT count(*) FROM ticket_sub_categories i JOIN tickets t ON t.id = i.ticket_id WHERE t.confirmed_at >= ? AND t.confirmed_at < ?",
      range,
    );
    expect(sheet.rowCount - 1).toBe(Number(db[0]));
    const row = sheet.getRow(2);
    expect(typeof row.getCell(at("Total")).value).toBe("number");
    expect(row.getCell(at("Date")).value).toBeInstanceOf(Date);
    expect(row.getCell(at("Total")).numFmt).toBe("#,##0.00");
    const customers: unknown[] = [];
    sheet.eachRow((r, n) => n > 1 && customers.push(r.getCell(at("Customer")).value));
    expect(customers).toContain(`'${FORMULA}`);
    expect(customers).toContain(MALTESE);
    expect(customers.every((c) => typeof c === "string")).toBe(true);
  });
});

describe("access and validation", () => {
  const paths = ["/tickets/csv/salesReport", "/tickets/csv/clientReport", "/tickets/csv/itemReport", "/tickets/csv/itemStateReport", "/statistics/home"];
  test("only admins (403 for manager, employee, driver)", async () => {
    const agent = await box.agentToken();
    for (const pin of [2222, 3333, 4444]) {
      const token = await box.employeeToken(pin, agent);
      for (const p of paths) expect((await get(`${p}?from=${FROM}&to=${TO}`, token)).status).toBe(403);
    }
  });

  test("bad dates are a 422 naming the field", async () => {
    const cases: [string, string][] = [
      ["from=2026-02-30&to=2026-03-01", "from"],
      ["from=2026-01-01&to=31-12-2026", "to"],
      ["from=2026-03-02&to=2026-03-01", "from: must not be after to"],
      ["to=2026-03-01", "from"],
      ["from=2026-01-01&to=2026-01-02&actions=x", "actions"],
      ["from=2026-01-01&to=2026-01-02&commission=12.5", "commission"],
    ];
    for (const [q, field] of cases) {
      const res = await get(`/tickets/csv/itemReport?${q}`);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { message: string }).message).toContain(field);
    }
  });
});

describe("home statistics", () => {
  test("head quarters: the chain and every shop; the periods add up", async () => {
    const res = await box.call("GET", "/api/v1/statistics/home", { token: hq });
    expect(res.status).toBe(200);
    const s = res.json.data;
    expect(s.scope).toBe("chain");
    expect(s.day).toBe("2026-11-22");
    expect(s.periods.week).toMatchObject({ from: "2026-11-22", to: "2026-11-28" });
    expect(s.periods.month).toMatchObject({ from: "2026-11-01", to: "2026-11-30" });
    const [start, end] = [dayStartUtc("2026-11-01"), dayStartUtc("2026-12-01")];
    const db = await one("SELECT count(*), sum(total), sum(total_paid) FROM tickets WHERE confirmed_at >= ? AND confirmed_at < ?", [start, end]);
    expect(s.periods.month.tickets).toBe(Number(db[0]));
    expect(Math.round(s.periods.month.sales * 100)).toBe(Number(db[1]));
    // Takings are the payment rows taken in the month, by tender, and (issue 34) the deposits taken
    // into a drawer and given back (the demo has one).
    const taken = await one(
      `SELECT sum(amount), sum(amount) FILTER (WHERE tender = 'cash') FROM (
        SELECT amount, tender FROM payments WHERE taken_at >= ? AND taken_at < ?
        UNION ALL SELECT amount, tender FROM deposits WHERE kind IN ('deposit', 'refund') AND till_day >= '2026-11-01' AND till_day <= '2026-11-30')`,
      [start, end],
    );
    expect(Number((await one("SELECT count(*) FROM deposits WHERE till_day >= '2026-11-01'", []))[0])).toBeGreaterThan(0);
    expect(Math.round(s.periods.month.takings * 100)).toBe(Number(taken[0]));
    expect(Math.round(s.periods.month.cash * 100)).toBe(Number(taken[1]));
    expect(Math.round(s.periods.month.outstanding * 100)).toBe(Number(db[1]) - Number(db[2]));
    expect(s.shops.reduce((n: number, x: any) => n + x.periods.month.tickets, 0)).toBe(s.periods.month.tickets);
    expect(s.tickets_by_state.length).toBeGreaterThan(0);
    expect(s.top_garments.length).toBeGreaterThan(0);
  });

  test("a shop gets its own figures and no comparison", async () => {
    const s = (await box.call("GET", "/api/v1/statistics/home", { token: shop })).json.data;
    expect(s.scope).toBe("shop");
    expect(s.shops).toBeNull();
    const hqMonth = (await box.call("GET", "/api/v1/statistics/home", { token: hq })).json.data.periods.month.tickets;
    expect(s.periods.month.tickets).toBeLessThan(hqMonth);
  });
});

describe("the worker", () => {
  test("stops when the client goes away", async () => {
    // Enough log rows that the report cannot be sent in one go.
    await box.database.client.execute(
      `INSERT INTO item_log_states (ticket_sub_category_id, state, logged_at, log)
       WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 60000)
       SELECT (SELECT min(id) FROM ticket_sub_categories), 'MARKED', '2026-06-01T10:00:00.000Z', 'load ' || k FROM n`,
    );
    const reports = createReportService({ db: { url: `file:${box.dir}/ironbox.db` }, clock: box.clock });
    const file = await reports.report(HQ_CALLER, "itemStateReport", { from: FROM, to: TO, format: "csv" });
    if (file.kind !== "file") throw new Error("expected a file");
    expect(reports.running()).toBe(1);
    const reader = file.body.getReader();
    expect((await reader.read()).done).toBe(false);
    await reader.cancel();
    expect(reports.running()).toBe(0);

    // Through HTTP: the request's abort ends it too, and a full download still works after.
    const ctrl = new AbortController();
    const res = await get(`/tickets/csv/itemStateReport?from=${FROM}&to=${TO}`, hq, ctrl.signal);
    const r = res.body!.getReader();
    await r.read();
    ctrl.abort();
    await r.cancel().catch(() => {});
    const again = await csv(`/tickets/csv/itemStateReport?from=${FROM}&to=${TO}`);
    expect(again.records.length).toBeGreaterThan(60000);
  });

  test("two reports at once at most; a third is told to wait (429)", async () => {
    const reports = createReportService({ db: { url: `file:${box.dir}/ironbox.db` }, clock: box.clock, maxRunning: 1 });
    const first = await reports.report(HQ_CALLER, "itemStateReport", { from: FROM, to: TO, format: "csv" });
    await expect(reports.report(HQ_CALLER, "itemStateReport", { from: FROM, to: TO, format: "csv" })).rejects.toThrow("Other reports");
    if (first.kind === "file") await first.body.cancel();
    expect(reports.running()).toBe(0);
  });
});

test("home statistics asked for at once share one report process and slot", async () => {
  const reports = createReportService({ db: { url: `file:${box.dir}/ironbox.db` }, clock: box.clock, maxRunning: 1 });
  const [a, b] = await Promise.all([reports.home(HQ_CALLER), reports.home(HQ_CALLER)]);
  expect(b).toEqual(a);
  expect(reports.running()).toBe(0);
  // Once made, the next ask makes them again (nothing is kept after the answer).
  expect(await reports.home(HQ_CALLER)).toEqual(a);
});

describe("cells", () => {
  test("any text survives CSV quoting and a real parser, neutralised when risky (property)", () => {
    const types = ["text", "money", "text"] as const;
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 40 }),
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.string({ maxLength: 20 }),
        (a, cents, b) => {
          const line = csvRecord(types, [a, cents, b]);
          const [rec] = parse(line, { relax_quotes: false }) as string[][];
          expect(rec).toEqual([neutralise(a), money(cents), neutralise(b)]);
          for (const cell of [rec![0]!, rec![2]!]) expect(/^[=+\-@\t\r]/.test(cell)).toBe(false);
          // A negative amount stays a plain number a spreadsheet adds up.
          expect(Number(rec![1])).toBe(cents / 100);
        },
      ),
      { numRuns: 500 },
    );
    expect(neutralise("=1+1")).toBe("'=1+1");
    expect(neutralise("\tx")).toBe("'\tx");
    expect(neutralise("Ħal Qormi")).toBe("Ħal Qormi");
    expect(money(-5)).toBe("-0.05");
  });

  test("shares add up to the amount exactly", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 6 }),
        (amount, weights) => {
          const parts = allocate(amount, weights);
          expect(parts.reduce((a, b) => a + b, 0)).toBe(amount);
          expect(parts.every((p) => p >= 0)).toBe(true);
        },
      ),
    );
  });
});
