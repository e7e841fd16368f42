// The shop box's side of a cross-box deposit transfer (issue 34): each phase applied once
// whatever the replays; an "out" the balance no longer covers is refused and recorded. One
// libSQL file stands for both boxes here (Mosta is site A's shop, B Kara site B's).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { createTransferApply } from "./transferApply";

let box: TestBox;
let admin: string;
let clerk: string;
const ids = {} as Record<"mosta" | "bkara" | "customer", number>;
let created = 0;

const ok = async (method: string, path: string, body: unknown, token: string) => {
  const r = await box.call(method, `/api/v1${path}`, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
const rows = async (sql: string) => (await box.database.client.execute(sql)).rows.map((r) => Object.values(r));
const held = async (agent: number) =>
  Number((await rows(`SELECT coalesce(sum(amount), 0) FROM deposits WHERE customer_id = ${ids.customer} AND agent_id = ${agent}`))[0]![0]);
const apply = () =>
  createTransferApply({
    db: box.database.db,
    clock: box.clock,
    customerFor: async () => {
      created++;
      return ids.customer;
    },
    // Every phase here names a customer the box knows (the creation is tested through boot's wiring: bookings/chainTransfers.test.ts).
    createCustomer: async () => {
      throw new Error("no customer should be created here");
    },
  });
const phase = (transfer_id: string, p: "out" | "in", amount: number, customer_id: number | null = ids.customer) => ({
  transfer_id,
  phase: p,
  agent_id: p === "out" ? ids.mosta : ids.bkara,
  customer_id,
  full_name: "Joseph Camilleri",
  mobile: "79123456",
  amount,
});

beforeAll(async () => {
  box = await testBox();
  admin = await box.employeeToken(ADMIN.pin, await box.agentToken());
  for (const [k, name, user] of [
    ["mosta", "Mosta", "mosta-a"],
    ["bkara", "B Kara", "bkara-a"],
  ] as const) {
    const shop = await ok("POST", "/agents/", { name, user_name: user }, admin);
    await ok("PUT", `/agents/password/${shop.id}`, { password: `${user}-pass` }, admin);
    ids[k] = shop.id;
  }
  await ok("POST", "/employees/", { agent_id: ids.mosta, full_name: "Carl Clerk", role: "employee", pin: 6102 }, admin);
  clerk = await box.employeeToken(6102, await box.agentToken("mosta-a", "mosta-a-pass"));
  ids.customer = (await ok("POST", "/customers/", { full_name: "Joseph Camilleri", mobile: "79123456" }, clerk)).id;
  await ok("POST", `/customers/${ids.customer}/deposits`, { amount: 30, method: "cash" }, clerk);
});
afterAll(() => box.close());

describe("a transfer phase at the shop's box", () => {
  test("phase out then in, each applied once under replays (two at once too)", async () => {
    const a = apply();
    const out = phase("tr-aaaaaaaa", "out", 1000);
    expect((await a.apply(out)).outcome).toBe("applied");
    const replays = await Promise.all([a.apply(out), a.apply(out), apply().apply(out)]);
    expect(replays.map((r) => r.outcome)).toEqual(["replay", "replay", "replay"]);
    expect(await held(ids.mosta)).toBe(2000);
    const inn = phase("tr-aaaaaaaa", "in", 1000, null);
    expect((await a.apply(inn)).outcome).toBe("applied");
    expect((await a.apply(inn)).outcome).toBe("replay");
    expect(await held(ids.bkara)).toBe(1000);
    // The destination has no id of its own for the customer: it looks them up at each delivery.
    expect(created).toBe(2);
    expect(await rows(`SELECT kind, amount FROM deposits WHERE transfer_id = 'tr-aaaaaaaa' ORDER BY id`)).toEqual([
      ["transfer_out", -1000],
      ["transfer_in", 1000],
    ]);
  });

  test("spent meanwhile: the out is refused and recorded, no row, the balance untouched", async () => {
    const r = await apply().apply(phase("tr-bbbbbbbb", "out", 2001));
    expect(r).toMatchObject({ outcome: "refused", reason: "Not enough balance to transfer €20.01: spent meanwhile" });
    expect(await held(ids.mosta)).toBe(2000);
    expect(await rows(`SELECT count(*) FROM deposits WHERE transfer_id = 'tr-bbbbbbbb'`)).toEqual([[0]]);
    expect(await rows(`SELECT action FROM audit_log WHERE detail LIKE '%tr-bbbbbbbb%'`)).toEqual([["transfer_refused"]]);
  });

  test("a refused out stays refused: served again after a new deposit covers it, nothing moves", async () => {
    const out = phase("tr-dddddddd", "out", 2500);
    expect(await apply().apply(out)).toMatchObject({ outcome: "refused" });
    await ok("POST", `/customers/${ids.customer}/deposits`, { amount: 10, method: "cash" }, clerk);
    expect(await held(ids.mosta)).toBe(3000);
    // HQ's copy showed no "out", so no "in" was issued; applying it now would take money nobody receives.
    const again = await Promise.all([apply().apply(out), apply().apply(out)]);
    expect(again.map((r) => r.outcome)).toEqual(["refused", "refused"]);
    expect(again[0]!.reason).toBe("This transfer was refused here before: it stays refused");
    expect(await held(ids.mosta)).toBe(3000);
    expect(await rows(`SELECT count(*) FROM deposits WHERE transfer_id = 'tr-dddddddd'`)).toEqual([[0]]);
    // The refusal is recorded once (the later deliveries answer it, they do not record it again).
    expect(await rows(`SELECT count(*) FROM audit_log WHERE action = 'transfer_refused' AND detail LIKE '%tr-dddddddd%'`)).toEqual([[1]]);
  });

  test("a malformed phase is refused before anything is written", async () => {
    expect(await apply().apply({ ...phase("tr-cccccccc", "out", 10), amount: 1.5 })).toMatchObject({ outcome: "refused" });
    expect(await rows(`SELECT count(*) FROM deposits WHERE transfer_id = 'tr-cccccccc'`)).toEqual([[0]]);
  });
});
