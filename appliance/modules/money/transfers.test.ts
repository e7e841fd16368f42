// Deposit transfers on one box (issue 34): HQ staff move a balance between two shops of the same
// database in one transaction, once per Idempotency-Key; too much is refused with nothing written.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { checkTotals } from "./check";

let box: TestBox;
let admin: string;
let shopAdmin: string;
let clerk: string;
const ids = {} as Record<"mosta-t" | "bkara-t" | "customer", number>;

const api = (method: string, path: string, body: unknown, token: string, headers?: Record<string, string>) =>
  box.call(method, `/api/v1${path}`, { token, body, headers });
const ok = async (method: string, path: string, body: unknown, token: string, headers?: Record<string, string>) => {
  const r = await api(method, path, body, token, headers);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
const rows = async (sql: string) => (await box.database.client.execute(sql)).rows.map((r) => Object.values(r));
const count = async (table: string) => Number((await rows(`SELECT count(*) FROM ${table}`))[0]![0]);
const transfer = (body: unknown, token = admin, key?: string) =>
  api("POST", `/customers/${ids.customer}/deposits/transfer`, body, token, key ? { "idempotency-key": key } : undefined);
/** The customer's balance at a shop, as HQ sees it (a B Kara clerk cannot see a Mosta customer). */
const atShop = async (agent: number) =>
  ((await ok("GET", `/customers/${ids.customer}/balance`, undefined, admin)).by_shop as { agent_id: number; balance: number }[]).find(
    (b) => b.agent_id === agent,
  )?.balance ?? 0;

beforeAll(async () => {
  box = await testBox();
  admin = await box.employeeToken(ADMIN.pin, await box.agentToken());
  for (const [name, user] of [
    ["Mosta", "mosta-t"],
    ["B Kara", "bkara-t"],
  ] as const) {
    const shop = await ok("POST", "/agents/", { name, user_name: user }, admin);
    await ok("PUT", `/agents/password/${shop.id}`, { password: `${user}-pass` }, admin);
    ids[user] = shop.id;
  }
  await ok("POST", "/employees/", { agent_id: ids["mosta-t"], full_name: "Anna Admin", role: "admin", pin: 6100 }, admin);
  await ok("POST", "/employees/", { agent_id: ids["mosta-t"], full_name: "Carl Clerk", role: "employee", pin: 6102 }, admin);
  await ok("POST", "/employees/", { agent_id: ids["bkara-t"], full_name: "Olga Other", role: "employee", pin: 6201 }, admin);
  const mosta = await box.agentToken("mosta-t", "mosta-t-pass");
  shopAdmin = await box.employeeToken(6100, mosta);
  clerk = await box.employeeToken(6102, mosta);
  ids.customer = (await ok("POST", "/customers/", { full_name: "Joseph Camilleri", mobile: "79123456" }, clerk)).id;
  await ok("POST", `/customers/${ids.customer}/deposits`, { amount: 30, method: "cash" }, clerk);
});
afterAll(() => box.close());

describe("a deposit transfer on one box", () => {
  test("the balance moves from Mosta to B Kara in two rows of one transfer_id; a retry with the same key changes nothing", async () => {
    expect(await atShop(ids["bkara-t"])).toBe(0);
    const body = { from_agent: ids["mosta-t"], to_agent: ids["bkara-t"], amount: 12.5 };
    const first = await transfer(body, admin, "tr-1");
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ status: "applied", amount: 12.5, from_balance: 17.5, to_balance: 12.5 });
    const again = await transfer(body, admin, "tr-1");
    expect(again.status).toBe(200);
    expect(again.json.data.transfer_id).toBe(first.json.data.transfer_id);
    const sides = await rows(`SELECT kind, agent_id, amount, tender FROM deposits WHERE transfer_id IS NOT NULL ORDER BY id`);
    expect(sides).toEqual([
      ["transfer_out", ids["mosta-t"], -1250, "transfer"],
      ["transfer_in", ids["bkara-t"], 1250, "transfer"],
    ]);
    expect(Number((await rows(`SELECT count(DISTINCT transfer_id) FROM deposits WHERE transfer_id IS NOT NULL`))[0]![0])).toBe(1);
    // Spendable now at B Kara, and no longer at Mosta; no drawer moved.
    expect(await atShop(ids["bkara-t"])).toBe(12.5);
    expect(await atShop(ids["mosta-t"])).toBe(17.5);
    expect((await ok("GET", `/customers/${ids.customer}/balance`, undefined, clerk)).spendable).toBe(17.5);
    expect(await checkTotals(rows)).toMatchObject({ ok: true });
  });

  test("more than the source shop holds is refused 422 and nothing is written", async () => {
    const before = await count("deposits");
    const audits = await count("audit_log");
    const r = await transfer({ from_agent: ids["mosta-t"], to_agent: ids["bkara-t"], amount: 17.51 });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe("Not enough balance at Mosta (€17.50) to transfer €17.51");
    expect(await count("deposits")).toBe(before);
    expect(await count("audit_log")).toBe(audits);
    // Fractions of a cent and a zero amount are refused by the euros schema.
    expect((await transfer({ from_agent: ids["mosta-t"], to_agent: ids["bkara-t"], amount: 1.005 })).status).toBe(422);
    expect((await transfer({ from_agent: ids["mosta-t"], to_agent: ids["bkara-t"], amount: 0 })).status).toBe(422);
    expect(await count("deposits")).toBe(before);
  });

  test("only HQ staff: a shop's admin and a clerk get 403; unknown shops and customers 404; the same shop 422", async () => {
    const body = { from_agent: ids["mosta-t"], to_agent: ids["bkara-t"], amount: 1 };
    expect((await transfer(body, shopAdmin)).status).toBe(403);
    expect((await transfer(body, clerk)).status).toBe(403);
    expect((await transfer({ ...body, to_agent: 999_999 })).status).toBe(404);
    expect((await transfer({ ...body, from_agent: 999_999 })).status).toBe(404);
    expect((await transfer({ ...body, to_agent: ids["mosta-t"] })).status).toBe(422);
    expect((await api("POST", "/customers/999999/deposits/transfer", body, admin)).status).toBe(404);
    expect(await count("deposits")).toBe(3);
  });
});
