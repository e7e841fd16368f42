// Invoice numbers have no gaps and no repeats: under concurrent requests, after a refused
// request, and across a restart of the box (the counter is a row of the database file).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { bootAppliance } from "../../boot";
import { loadConfig } from "../../platform/config";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

let box: TestBox;
let admin: string;
const N = 12;
const accountIds: number[] = [];

const ok = async (method: string, path: string, body: unknown, token = admin) => {
  const r = await box.call(method, `/api/v1${path}`, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};

beforeAll(async () => {
  box = await testBox({ now: "2026-06-10T09:00:00Z" });
  admin = await box.employeeToken(ADMIN.pin, await box.agentToken());
  const dc = (await ok("POST", "/actions/", { name: "Laundry", up_charge: 0 })).id;
  const cat = (await ok("POST", "/garmentCategories/", { type: "Laundry", name: "Linen", default_action_id: dc })).id;
  const sheet = (await ok("POST", "/garmentSubCategories/", { garment_category_id: cat, name: "Sheet" })).id;
  await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: sheet, action_id: dc, price: 2.35 });
  // N accounts, each with one ticket charged to it (the admin acts alone past any limit).
  for (let i = 0; i < N + 2; i++) {
    const c = (await ok("POST", "/customers/", { full_name: `Hotel ${i} linen`, mobile: `7900${String(i).padStart(4, "0")}` })).id;
    accountIds.push((await ok("POST", "/accounts/", { name: `Hotel ${i}`, customer_ids: [c] })).id);
    const t = await ok("POST", "/tickets/", { customer_id: c });
    await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: sheet });
    await ok("PUT", `/tickets/${t.id}/confirm`, undefined);
    await ok("PUT", `/tickets/paidFor/${t.id}?method=account`, undefined);
  }
});
afterAll(() => rmSync(box.dir, { recursive: true, force: true }));

test("N concurrent invoices take 1..N, no gap, no repeat; a refused one takes none; a restart continues the series", async () => {
  const period = { from: "2026-06-01", to: "2026-06-30" };
  // Half of the requests ask again for an account already being invoiced: those find nothing left (422).
  const targets = [...accountIds.slice(0, N), accountIds[0]!, accountIds[1]!];
  const answers = await Promise.all(targets.map((id) => box.call("POST", `/api/v1/accounts/${id}/invoices`, { token: admin, body: period })));
  const made = answers.filter((r) => r.status === 200).map((r) => r.json.data.number as string);
  expect(answers.filter((r) => r.status === 422).length).toBe(2);
  expect(made.length).toBe(N);
  const seqs = made.map((n) => Number(n.split("-").at(-1))).sort((a, b) => a - b);
  expect(seqs).toEqual(Array.from({ length: N }, (_, i) => i + 1));
  expect(new Set(made).size).toBe(N);
  // The database refuses a number that is not the counter's next.
  await expect(
    box.database.client.execute(
      "INSERT INTO invoices (agent_id, account_id, number, year, seq, period_from, period_to, issued_on, due_on, account_name, vat_number, created_at) VALUES (1, 1, 'X', 2026, 99, '', '', '', '', '', '', '')",
    ),
  ).rejects.toThrow();

  // Close the box and its database file, boot it again on the same folder: the series goes on.
  box.stop();
  box.database.close();
  const again = await bootAppliance(
    loadConfig({
      IRONBOX_DATA_DIR: box.dir,
      IRONBOX_UI_DIR: join(box.dir, "no-ui"),
      IRONBOX_SYSFS_ROOT: join(box.dir, "sys"),
      IRONBOX_DEV_ROOT: join(box.dir, "dev"),
    }),
    { clock: box.clock, log: () => {} },
  );
  try {
    const res = await again.app.handle(
      new Request(`http://localhost/api/v1/accounts/${accountIds[N]}/invoices`, {
        method: "POST",
        headers: { authorization: `token ${admin}`, "content-type": "application/json" },
        body: JSON.stringify(period),
      }),
    );
    const next = (await res.json()) as { data: { number: string } };
    expect(res.status).toBe(200);
    expect(next.data.number).toBe(`S1-2026-${String(N + 1).padStart(6, "0")}`);
  } finally {
    again.stop();
    again.database.close();
  }
});
