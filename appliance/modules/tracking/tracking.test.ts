import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { itemCode, multipleCode, ticketCode } from "../../domain/scancodes";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

let box: TestBox;
let admin: string;
let ticket: { id: number; ticket_sub_categories: { id: number }[] };

const ok = async (method: string, path: string, body?: unknown, token = admin) => {
  const r = await box.call(method, `/api/v1${path}`, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};

beforeAll(async () => {
  box = await testBox({ demo: true });
  admin = await box.employeeToken(ADMIN.pin);
  const garments = await ok("GET", "/garmentSubCategories/");
  const customer = await ok("POST", "/customers/", { full_name: "Tracking Customer" });
  const t = await ok("POST", "/tickets/", { customer_id: customer.id });
  for (const g of garments.slice(0, 3)) await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: g.id });
  await ok("PUT", `/tickets/${t.id}/confirm`);
  ticket = await ok("GET", `/tickets/${t.id}`);
});
afterAll(() => box.close());

const scan = (code: string) => box.call("GET", `/api/v1/tracking/scan?code=${encodeURIComponent(code)}`, { token: admin });

describe("scanning", () => {
  test("a ticket code lists its items; item and multiple codes list those items", async () => {
    const all = ticket.ticket_sub_categories.map((i) => i.id);
    const t = await scan(ticketCode(ticket.id));
    expect(t.json.data.scan).toEqual({ type: "ticket", TicketID: ticket.id });
    expect(t.json.data.items.map((i: { id: number }) => i.id)).toEqual(all);
    expect(t.json.data.items[0]).toMatchObject({ ticket_id: ticket.id, customer_name: "Tracking Customer", agent_name: "Head Quarters" });
    const one = await scan(itemCode({ itemId: all[1]!, desc: "Whatever", ticketId: ticket.id, piece: "Jacket" }));
    expect(one.json.data.items.map((i: { id: number }) => i.id)).toEqual([all[1]]);
    const many = await scan(`]${multipleCode({ itemIds: [all[0]!, all[2]!] })}`);
    expect(many.json.data.items.map((i: { id: number }) => i.id)).toEqual([all[0], all[2]]);
  });

  test("bad and unknown codes", async () => {
    expect((await scan("")).json.message).toBe("Ticket Number UNDEFINED!");
    expect((await scan("hello")).status).toBe(422);
    expect((await scan(ticketCode(99999999))).status).toBe(404);
  });
});

describe("state logs", () => {
  test("changes by ticket, with the grand total counting each garment once", async () => {
    const ids = ticket.ticket_sub_categories.map((i) => i.id);
    await ok("PUT", "/ticketSubCategory/changeState", { Ids: ids, State: "MARKED" });
    const sig = `data:image/png;base64,${Buffer.from("drawn").toString("base64")}`;
    await ok("PUT", "/ticketSubCategory/changeState", { Ids: ids, State: "IN PROGRESS", Signature: sig });
    // The ticket's history shows the change with its signature (the customer's history dialog).
    expect((await ok("GET", `/ticketLogStates/${ticket.id}`))[0]).toMatchObject({ state: "IN PROGRESS", log: "3 items set to IN PROGRESS", signature: sig });
    const r = await ok("GET", `/ticketLogStates/logStateJourney/query?tid=${ticket.id}&df=2026-11-22&dt=2026-11-22`);
    expect(r.data.filter((x: { state: string }) => x.state === "IN PROGRESS")).toHaveLength(3);
    expect(r.data[0]).toMatchObject({ ticket_id: ticket.id, employee: "Administrator", agent: "Head Quarters" });
    const t = await ok("GET", `/tickets/${ticket.id}`);
    expect(r.grand_total).toBeCloseTo(
      t.ticket_sub_categories.reduce((s: number, i: { total: number }) => s + i.total, 0),
      2,
    );
    const byState = await ok("GET", `/ticketLogStates/logStateJourney/query?tid=${ticket.id}&s=MARKED&df=2026-11-22&dt=2026-11-22`);
    expect(byState.data).toHaveLength(3);
    expect((await ok("GET", `/ticketLogStates/logStateJourney/query?tid=${ticket.id}&df=2026-11-23&dt=2026-11-30`)).data).toEqual([]);
    expect((await box.call("GET", "/api/v1/ticketLogStates/logStateJourney/query?df=2026-02-30", { token: admin })).status).toBe(422);
  });
});

describe("ticket states", () => {
  test("admins add and rename locality delivery states, in the list before DELIVERED", async () => {
    const added = await ok("POST", "/ticketStates/", { name: "Naxxar" });
    const states = (await ok("GET", "/ticketStates/")).map((s: { name: string }) => s.name);
    expect(states.indexOf("Naxxar")).toBe(states.indexOf("San Gwann") + 1);
    expect(states.indexOf("DELIVERED")).toBe(states.indexOf("Naxxar") + 1);
    await ok("PUT", "/ticketSubCategory/changeState", { Ids: [ticket.ticket_sub_categories[0]!.id], State: "Naxxar" });
    await ok("PUT", `/ticketStates/${added.id}`, { name: "Naxxar North" });
    expect((await ok("GET", `/ticketSubCategory/${ticket.ticket_sub_categories[0]!.id}`)).state).toBe("Naxxar North");
    const created = (await ok("GET", "/ticketStates/")).find((s: { name: string }) => s.name === "CREATED");
    expect((await box.call("PUT", `/api/v1/ticketStates/${created.id}`, { token: admin, body: { name: "NEW" } })).status).toBe(422);
    expect((await box.call("POST", "/api/v1/ticketStates/", { token: admin, body: { name: "DELIVERED" } })).status).toBe(409);
  });
});
