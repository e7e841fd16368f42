// The models are the contract with the UI: every answer of the tickets and tracking routes
// parses with its model unchanged (no field missing, none extra: zod drops unknown keys, so
// an answer with a field the model does not name would differ after parsing).
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { z } from "zod";
import { ticketCode } from "../../domain/scancodes";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { Journey, ScanAnswer, TicketState as TrackingState } from "../tracking/model";
import { ExpressItem, Item, StateChangeResult, Ticket, TicketListRow, TicketLog, TicketState, TicketSummary } from "./model";

let box: TestBox;
let admin: string;
const ok = async (method: string, path: string, body?: unknown) => {
  const r = await box.call(method, `/api/v1${path}`, { token: admin, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
const holds = (schema: z.ZodType, answer: unknown) => expect(schema.parse(answer)).toEqual(answer as never);

beforeAll(async () => {
  box = await testBox({ demo: true });
  admin = await box.employeeToken(ADMIN.pin);
});
afterAll(() => box.close());

test("tickets, items, logs, states and lists answer the model's shapes", async () => {
  const list: TicketListRow[] = await ok("GET", "/tickets/?limit=50&withChildren=true");
  expect(list.length).toBeGreaterThan(10);
  for (const row of list) holds(TicketListRow, row);
  // Demo tickets with actions, modifiers, a signature in the history and a discount.
  const withMods = list.find((t) => t.ticket_sub_categories?.some((i) => i.modifiers.length && i.actions.length));
  expect(withMods).toBeDefined();
  for (const row of list.slice(0, 15)) {
    const t: Ticket = await ok("GET", `/tickets/${row.id}`);
    holds(Ticket, t);
    for (const l of await ok("GET", `/ticketLogStates/${row.id}`)) holds(TicketLog, l);
    for (const i of await ok("GET", `/tickets/children/${row.id}`)) holds(Item, i);
  }
  for (const s of await ok("GET", "/ticketStates/")) holds(TicketState, s);
  for (const e of await ok("GET", "/ticketSubCategory/express/")) holds(ExpressItem, e);
  for (const t of await ok("GET", `/tickets/customer/${withMods!.customer_id}`)) holds(TicketSummary, t);

  const customer = await ok("POST", "/customers/", { full_name: "Model Customer" });
  const garments = await ok("GET", "/garmentSubCategories/");
  const t = await ok("POST", "/tickets/", { customer_id: customer.id, pickup_charge: 2.5 });
  holds(Ticket, t);
  const [item] = await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: garments[0].id });
  holds(Item, item);
  holds(Item, await ok("PUT", `/ticketSubCategory/${item.id}`, { total_override: 7.25 }));
  holds(StateChangeResult, await ok("PUT", "/ticketSubCategory/changeState", { Ids: [item.id], State: "MARKED" }));
  holds(Ticket, await ok("PUT", `/tickets/${t.id}/confirm`));

  holds(ScanAnswer, await ok("GET", `/tracking/scan?code=${encodeURIComponent(ticketCode(t.id))}`));
  holds(Journey, await ok("GET", "/ticketLogStates/logStateJourney/query?df=2026-11-01&dt=2026-11-30"));
  holds(TrackingState, await ok("POST", "/ticketStates/", { name: "Naxxar" }));
});
