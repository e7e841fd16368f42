// The time zone has one owner (issue 31): a zone set on "The box" reaches the drawer's till
// days, the payments report's days and times, and the nightly backup's hours, with no restart.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { parse } from "csv-parse/sync";
import { DEFAULT_TZ, setShopTimeZone } from "../../domain/dates";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { backupDue } from "../boxhealth/backups";

// 03:00 UTC on 25/11: 04:00 on the 25th in Malta, 22:00 on the 24th in New York.
const NOW = "2026-11-25T03:00:00Z";
let box: TestBox;
let admin: string;
const call = async (method: string, path: string, body?: unknown) => {
  const r = await box.call(method, `/api/v1${path}`, { token: admin, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
async function paymentsReport(day: string) {
  const r = await box.app.handle(
    new Request(`http://localhost/api/v1/tickets/csv/paymentsReport?from=${day}&to=${day}`, { headers: { authorization: `token ${admin}` } }),
  );
  if (r.status === 204) return [];
  expect(r.status).toBe(200);
  const [header, ...rows] = parse(Buffer.from(await r.arrayBuffer()), { bom: true }) as string[][];
  return rows.map((x) => Object.fromEntries(header!.map((h, i) => [h, x[i]])));
}

beforeAll(async () => {
  box = await testBox({ now: NOW });
  admin = await box.employeeToken(ADMIN.pin);
});
afterAll(() => {
  // The zone is the process's: put Malta back for whatever runs next.
  setShopTimeZone(DEFAULT_TZ);
  delete process.env.IRONBOX_TIME_ZONE;
  box.close();
});

test("a zone set on The box moves the payments report's days and times and the backup's night", async () => {
  // The night window is 02:00-05:00 in the shop's zone: 08:00 UTC is 09:00 in Malta, 03:00 in New York.
  const morning = new Date("2026-11-25T08:00:00Z");
  const lastCopy = new Date("2026-11-25T00:00:00Z");
  expect(backupDue(morning, lastCopy)).toBe(false);
  expect((await call("PUT", "/box/timeZone", { time_zone: "America/New_York" })).time_zone).toBe("America/New_York");
  expect(backupDue(morning, lastCopy)).toBe(true);
  expect(backupDue(new Date("2026-11-25T03:00:00Z"), lastCopy)).toBe(false);

  const dc = (await call("POST", "/actions/", { name: "Dry Cleaning", up_charge: 10 })).id;
  const cat = (await call("POST", "/garmentCategories/", { type: "Dry Clean", name: "Suits", default_action_id: dc })).id;
  const suit = (await call("POST", "/garmentSubCategories/", { garment_category_id: cat, name: "Suit" })).id;
  await call("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: suit, action_id: dc, price: 12.5 });
  const customer = (await call("POST", "/customers/", { full_name: "Rita Borg", mobile: "79555111" })).id;
  const t = await call("POST", "/tickets/", { customer_id: customer });
  await call("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: suit });
  await call("PUT", `/tickets/${t.id}/confirm`);
  await call("PUT", `/tickets/paidFor/${t.id}?method=cash`);

  // New York's evening of the 24th, on the drawer and in the report.
  expect((await call("GET", "/till/2026-11-24")).expected.cash).toBe(12.5);
  expect((await call("GET", "/till/2026-11-25")).expected.cash).toBe(0);
  expect(await paymentsReport("2026-11-24")).toEqual([
    expect.objectContaining({ Date: "24-11-2026", Time: "22:00", "Till day": "24-11-2026", Amount: "12.50" }),
  ]);
  expect(await paymentsReport("2026-11-25")).toEqual([]);
  expect((await call("GET", "/statistics/home")).periods.today).toMatchObject({ from: "2026-11-24", takings: 12.5 });
}, 60_000);
