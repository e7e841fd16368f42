import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { checkPaymentSums } from "./check";

let box: TestBox;
let admin: string;
let manager: string;
let clerk: string;
let driver: string;
let otherClerk: string;
let otherManager: string;
const ids: Record<string, number> = {};

const api = (method: string, path: string, body: unknown, token: string) => box.call(method, `/api/v1${path}`, { token, body });
const ok = async (method: string, path: string, body: unknown, token: string) => {
  const r = await api(method, path, body, token);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
const sums = () => checkPaymentSums(async (sql) => (await box.database.client.execute(sql)).rows.map((r) => Object.values(r)));

/** A confirmed ticket of shop A with two shirts at €3 and a suit at €12.50 (€18.50). */
async function ticket(token = clerk) {
  const t = await ok("POST", "/tickets/", { customer_id: ids.customer }, token);
  await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.shirt }, token);
  await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.shirt }, token);
  await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.suit }, token);
  await ok("PUT", `/tickets/${t.id}/confirm`, undefined, token);
  return (await ok("GET", `/tickets/${t.id}`, undefined, token)) as { id: number; total: number; ticket_sub_categories: { id: number; total: number }[] };
}

/** Sessions expire: after the clock moves a day, everyone logs in again. */
async function login() {
  admin = await box.employeeToken(ADMIN.pin, await box.agentToken());
  if (!ids["mosta-p"]) return;
  const mosta = await box.agentToken("mosta-p", "mosta-p-pass");
  const bkara = await box.agentToken("bkara-p", "bkara-p-pass");
  manager = await box.employeeToken(5101, mosta);
  clerk = await box.employeeToken(5102, mosta);
  driver = await box.employeeToken(5103, mosta);
  otherClerk = await box.employeeToken(5201, bkara);
  otherManager = await box.employeeToken(5202, bkara);
}

beforeAll(async () => {
  box = await testBox();
  await login();
  for (const [name, user] of [
    ["Mosta", "mosta-p"],
    ["B Kara", "bkara-p"],
  ] as const) {
    const shop = await ok("POST", "/agents/", { name, user_name: user }, admin);
    await ok("PUT", `/agents/password/${shop.id}`, { password: `${user}-pass` }, admin);
    ids[user] = shop.id;
  }
  await ok("POST", "/employees/", { agent_id: ids["mosta-p"], full_name: "Maria Manager", role: "manager", pin: 5101 }, admin);
  await ok("POST", "/employees/", { agent_id: ids["mosta-p"], full_name: "Carl Clerk", role: "employee", pin: 5102 }, admin);
  await ok("POST", "/employees/", { agent_id: ids["mosta-p"], full_name: "Dan Driver", role: "driver", pin: 5103 }, admin);
  await ok("POST", "/employees/", { agent_id: ids["bkara-p"], full_name: "Olga Other", role: "employee", pin: 5201 }, admin);
  await ok("POST", "/employees/", { agent_id: ids["bkara-p"], full_name: "Omar Other", role: "manager", pin: 5202 }, admin);
  await login();
  const dc = (await ok("POST", "/actions/", { name: "Dry Cleaning", up_charge: 10 }, admin)).id;
  const cat = (await ok("POST", "/garmentCategories/", { type: "Dry Clean", name: "Suits", default_action_id: dc }, admin)).id;
  ids.suit = (await ok("POST", "/garmentSubCategories/", { garment_category_id: cat, name: "Suit 2pc", pieces: "Jacket,Trousers" }, admin)).id;
  ids.shirt = (await ok("POST", "/garmentSubCategories/", { garment_category_id: cat, name: "Shirt" }, admin)).id;
  await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: ids.suit, action_id: dc, price: 12.5 }, admin);
  await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: ids.shirt, action_id: dc, price: 3 }, admin);
  ids.customer = (await ok("POST", "/customers/", { full_name: "Joseph Camilleri", mobile: "79123456" }, clerk)).id;
});
afterAll(() => box.close());

describe("payments are rows", () => {
  test("cash with change, card and a split: each a row with its tender; totals are the rows' sums", async () => {
    const t = await ticket();
    expect(t.total).toBe(18.5);
    // A shirt by card, then €5 of the ticket in cash from a €10 note, then the rest in cash from €20.
    const shirt = await ok("PUT", `/ticketSubCategory/paidFor/${t.ticket_sub_categories[0]!.id}/3?method=card`, undefined, clerk);
    expect(shirt).toMatchObject({ total_paid: 3, balance: 0 });
    expect((await ok("PUT", `/tickets/paidFor/${t.id}?amount=5&method=cash&tendered=10`, undefined, clerk)).total_paid).toBe(8);
    const paid = await ok("PUT", `/tickets/paidFor/${t.id}?tendered=20`, undefined, clerk);
    expect(paid).toMatchObject({ total_paid: 18.5, balance: 0 });
    const rows = await ok("GET", `/payments/?ticket=${t.id}`, undefined, clerk);
    expect(rows.map((r: { tender: string; amount: number }) => [r.tender, r.amount])).toEqual([
      ["card", 3],
      ["cash", 3],
      ["cash", 2],
      ["cash", 10.5],
    ]);
    // €5 from €10: €5 change; €10.50 from €20: €9.50 change (shown on the row that carries the tendered amount).
    expect(rows.filter((r: { tendered: number | null }) => r.tendered !== null).map((r: { change: number }) => r.change)).toEqual([5, 9.5]);
    expect(rows.every((r: { employee: string }) => r.employee === "Carl Clerk")).toBe(true);
    // The clerk holds the cash (an owing), not the card payment.
    expect((await ok("GET", `/tickets/${t.id}`, undefined, clerk)).ticket_sub_categories.map((i: { balance: number }) => i.balance)).toEqual([0, 0, 0]);
    expect(await sums()).toEqual([]);
  });

  test("paying again never lowers what was paid; bad tenders are refused", async () => {
    const t = await ticket();
    await ok("PUT", `/tickets/paidFor/${t.id}?method=card`, undefined, clerk);
    const again = await ok("PUT", `/tickets/paidFor/${t.id}`, undefined, clerk);
    expect(again.total_paid).toBe(18.5);
    expect((await ok("GET", `/payments/?ticket=${t.id}`, undefined, clerk)).length).toBe(3);
    const u = await ticket();
    expect((await api("PUT", `/tickets/paidFor/${u.id}?method=cheque`, undefined, clerk)).status).toBe(422);
    expect((await api("PUT", `/tickets/paidFor/${u.id}?amount=100`, undefined, clerk)).status).toBe(422);
    expect((await api("PUT", `/tickets/paidFor/${u.id}?method=card&tendered=50`, undefined, clerk)).status).toBe(422);
    expect((await api("PUT", `/tickets/paidFor/${u.id}?tendered=1`, undefined, clerk)).status).toBe(422);
    expect((await ok("GET", `/tickets/${u.id}`, undefined, clerk)).total_paid).toBe(0);
    // A row is never changed or removed, even by SQL.
    await expect(box.database.client.execute("UPDATE payments SET amount = 1")).rejects.toThrow(/append-only/);
    await expect(box.database.client.execute("DELETE FROM payments")).rejects.toThrow(/append-only/);
  });

  test("a driver's cash on the run is a row on the driver's name with the stop", async () => {
    const t = await ticket();
    await ok("PUT", `/tickets/paidFor/${t.id}`, undefined, driver);
    const rows = await ok("GET", `/payments/?ticket=${t.id}`, undefined, manager);
    expect(rows.every((r: { employee: string; stop: string }) => r.employee === "Dan Driver" && r.stop?.startsWith("delivery "))).toBe(true);
  });
});

describe("refunds", () => {
  test("a clerk needs a manager's PIN; never more than the payment holds; a reason; audited", async () => {
    const t = await ticket();
    await ok("PUT", `/tickets/paidFor/${t.id}?method=card`, undefined, clerk);
    const [first] = await ok("GET", `/payments/?ticket=${t.id}`, undefined, clerk);
    expect((await api("POST", `/payments/${first.id}/refund`, { amount: 1, reason: "Stain left" }, clerk)).status).toBe(403);
    expect((await api("POST", `/payments/${first.id}/refund`, { amount: 1, reason: "Stain left", approval: { pin: "5202" } }, clerk)).status).toBe(403);
    expect((await api("POST", `/payments/${first.id}/refund`, { amount: 1, reason: "", approval: { pin: "5101" } }, clerk)).status).toBe(422);
    const r = await ok("POST", `/payments/${first.id}/refund`, { amount: 2, reason: "Stain left", approval: { pin: "5101" } }, clerk);
    expect(r).toMatchObject({ amount: -2, tender: "card", refund_of: first.id, reason: "Stain left" });
    expect((await api("POST", `/payments/${first.id}/refund`, { amount: 1.01, reason: "Again", approval: { pin: "5101" } }, clerk)).status).toBe(422);
    expect((await api("POST", `/payments/${r.id}/refund`, { amount: 1, reason: "Refund a refund" }, manager)).status).toBe(422);
    await ok("POST", `/payments/${first.id}/refund`, { amount: 1, reason: "The rest" }, manager);
    expect((await ok("GET", `/tickets/${t.id}`, undefined, clerk)).total_paid).toBe(15.5);
    const audit = await box.database.client.execute({ sql: "SELECT count(*) AS n FROM audit_log WHERE action = 'refund' AND entity_id = ?", args: [first.id] });
    expect(Number(audit.rows[0]!.n)).toBe(2);
    expect(await sums()).toEqual([]);
  });
});

describe("another shop", () => {
  test("cannot list, refund or read the till of this shop; HQ sees all", async () => {
    const t = await ticket();
    await ok("PUT", `/tickets/paidFor/${t.id}`, undefined, clerk);
    const [p] = await ok("GET", `/payments/?ticket=${t.id}`, undefined, clerk);
    // Control: this shop's manager refunds.
    expect((await api("POST", `/payments/${p.id}/refund`, { amount: 0.5, reason: "Control" }, manager)).status).toBe(200);
    expect((await api("POST", `/payments/${p.id}/refund`, { amount: 0.5, reason: "Theft" }, otherManager)).status).toBe(404);
    expect(await ok("GET", `/payments/?ticket=${t.id}`, undefined, otherClerk)).toEqual([]);
    expect(await ok("GET", "/payments/?from=2026-11-01&to=2026-11-30", undefined, otherClerk)).toEqual([]);
    expect((await api("PUT", `/tickets/paidFor/${t.id}?method=card`, undefined, otherClerk)).status).toBe(404);
    expect((await api("GET", `/till/2026-11-22?agent=${ids["mosta-p"]}`, undefined, otherManager)).status).toBe(404);
    expect((await api("POST", `/till/2026-11-22/close?agent=${ids["mosta-p"]}`, { counted: { cash: 0, card: 0, other: 0 } }, otherManager)).status).toBe(404);
    expect((await ok("GET", `/payments/?ticket=${t.id}`, undefined, admin)).length).toBeGreaterThan(0);
    expect((await ok("GET", `/till/2026-11-22?agent=${ids["mosta-p"]}`, undefined, admin)).agent_id).toBe(ids["mosta-p"]);
  });
});

describe("the till", () => {
  test("expected per tender, close with variance, 409 on a second close, later payments in the next day, admin reopen", async () => {
    box.clock.set("2026-11-23T08:00:00Z");
    await login();
    const t = await ticket();
    await ok("PUT", `/ticketSubCategory/paidFor/${t.ticket_sub_categories[2]!.id}/12.5?method=card`, undefined, clerk);
    await ok("PUT", `/tickets/paidFor/${t.id}?tendered=10`, undefined, clerk);
    const day = await ok("GET", "/till/2026-11-23", undefined, manager);
    expect(day).toMatchObject({ expected: { cash: 6, card: 12.5, other: 0 }, payments: 3, refunds: 0, closed: null });
    expect(day.by_employee).toEqual([{ employee_id: expect.any(Number), employee: "Carl Clerk", role: "employee", cash: 6 }]);
    expect((await api("GET", "/till/2026-11-23", undefined, clerk)).status).toBe(403);
    const closed = await ok("POST", "/till/2026-11-23/close", { counted: { cash: 5.5, card: 12.5, other: 0 }, note: "50c short" }, manager);
    expect(closed.closed).toMatchObject({ counted: { cash: 5.5, card: 12.5, other: 0 }, variance: { cash: -0.5, card: 0, other: 0 }, note: "50c short" });
    expect((await api("POST", "/till/2026-11-23/close", { counted: { cash: 6, card: 12.5, other: 0 } }, manager)).status).toBe(409);
    // The Z report: the same figures as a PDF, read back as text.
    const res = await box.app.handle(new Request("http://localhost/api/v1/till/2026-11-23/z.pdf", { headers: { authorization: `token ${manager}` } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    await Bun.write(`${box.dir}/z.pdf`, await res.arrayBuffer());
    const z = Bun.spawnSync(["pdftotext", "-layout", `${box.dir}/z.pdf`, "-"]).stdout.toString();
    expect(z).toContain("Day 23/11/2026");
    expect(z).toMatch(/Cash\s+€6\.00\s+€5\.50\s+-€0\.50/);
    expect(z).toMatch(/Card\s+€12\.50\s+€12\.50\s+€0\.00/);
    expect(z).toContain("50c short");
    expect((await api("GET", "/till/2026-11-23/z.pdf", undefined, clerk)).status).toBe(403);
    // Paid after the close: it counts in the next day, and the closed day says so.
    box.clock.set("2026-11-23T17:00:00Z");
    await login();
    const u = await ticket();
    await ok("PUT", `/tickets/paidFor/${u.id}`, undefined, clerk);
    expect(await ok("GET", "/till/2026-11-23", undefined, manager)).toMatchObject({ expected: { cash: 6 }, moved_to_next_day: 3 });
    expect((await ok("GET", "/till/2026-11-24", undefined, manager)).expected.cash).toBe(18.5);
    expect((await api("POST", "/till/2026-11-23/reopen", undefined, manager)).status).toBe(403);
    const reopened = await ok("POST", `/till/2026-11-23/reopen?agent=${ids["mosta-p"]}`, undefined, admin);
    expect(reopened).toMatchObject({ closed: null, reopened: [{ reopened_at: "2026-11-23T17:00:00.000Z" }] });
    // Reopened, the day takes payments again and can be closed once more.
    const v = await ticket();
    await ok("PUT", `/tickets/paidFor/${v.id}?method=other`, undefined, clerk);
    expect((await ok("GET", "/till/2026-11-23", undefined, manager)).expected.other).toBe(18.5);
    expect((await ok("POST", "/till/2026-11-23/close", { counted: { cash: 6, card: 12.5, other: 18.5 } }, manager)).closed.variance).toEqual({
      cash: 0,
      card: 0,
      other: 0,
    });
    const audit = await box.database.client.execute("SELECT action FROM audit_log WHERE entity = 'till' ORDER BY id");
    expect(audit.rows.map((r) => r.action)).toEqual(["close_till", "reopen_till", "close_till"]);
  });
});

test("over the demo data, every total equals its rows", async () => {
  const demo = await testBox({ demo: true });
  try {
    expect(await checkPaymentSums(async (sql) => (await demo.database.client.execute(sql)).rows.map((r) => Object.values(r)))).toEqual([]);
    const [n] = (await demo.database.client.execute("SELECT count(*) AS n, sum(tender = 'card') AS card FROM payments")).rows;
    expect(Number(n!.n)).toBeGreaterThan(10);
    expect(Number(n!.card)).toBeGreaterThan(0);
  } finally {
    demo.close();
  }
}, 30_000);
