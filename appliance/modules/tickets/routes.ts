import { z } from "zod";
import { unprocessable } from "../../platform/errors";
import { ROLES, route } from "../../http/route";
import { IdParams, IsoDate } from "../../domain/schemas";
import { WithApproval } from "../approval/routes";
import { PayQuery, type Tender } from "../payments/model";
import type { ItemService } from "./items";
import { toCents } from "../../domain/money";
import {
  ExpressItem,
  Item,
  ItemActionBody,
  ItemBody,
  ItemModifierBody,
  ItemUpdate,
  itemOut,
  listRowOut,
  StateChange,
  StateChangeResult,
  summaryOut,
  Ticket,
  TicketBody,
  TicketListRow,
  TicketLog,
  TicketOptionsBody,
  ticketOut,
  TicketState,
  TicketSummary,
} from "./model";
import { Address } from "../places/model";
import type { TicketOptionsInput, TicketService } from "./service";

const staff = { roles: ROLES };
/** GET /tickets/?tab= (spec §7): which part of the list. */
const TICKET_TABS = ["all", "open", "done", "unconfirmed"] as const;
const bool = z.enum(["true", "false"]).transform((v) => v === "true");
const many = z.union([z.string().max(100), z.array(z.string().max(100)).max(50)]).transform((v) => [v].flat());
const IdBody = z.object({ id: z.coerce.number().int().positive() });
/** Who approves, for the services: the PIN (if any) and the tablet it was typed on. */
/** The tender of a pay route's query; cash handed over is in euros on the wire. */
const payWith = (q: { method?: Tender; tendered?: number }) => ({
  tender: q.method ?? "cash",
  tendered: q.tendered === undefined ? null : toCents(q.tendered),
});
const approvalOf = (body: { approval?: { pin: string } }, client: string) => ({ pin: body.approval?.pin, client });

export function ticketRoutes(tickets: TicketService, items: ItemService) {
  return [
    route({
      method: "GET",
      path: "/tickets/",
      response: z.array(TicketListRow),
      tag: "tickets",
      summary:
        "Ticket list without CREATED; limit/offset paging, notState (repeated), date, term, withChildren; tab open|done|unconfirmed|all; confirmed_at=false lists the unconfirmed tickets",
      access: staff,
      query: z.object({
        limit: z.coerce.number().int().min(1).max(200).default(10),
        offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
        notState: many.optional(),
        confirmed_at: bool.optional(),
        withChildren: bool.optional(),
        date: IsoDate.optional(),
        term: z.string().max(100).optional(),
        tab: z
          .enum(TICKET_TABS)
          .optional()
          .describe("open: not yet delivered or closed; done: delivered or closed; unconfirmed: never confirmed; all (the default)"),
      }),
      handler: async ({ caller, query }) =>
        (
          await tickets.list(caller, {
            limit: query.limit,
            offset: query.offset,
            notState: query.notState ?? [],
            confirmed: query.tab === "unconfirmed" ? false : query.confirmed_at,
            tab: query.tab,
            date: query.date,
            term: query.term,
            withChildren: query.withChildren ?? false,
          })
        ).map(listRowOut),
    }),
    route({
      method: "GET",
      path: "/ticketLogStates/:id",
      response: z.array(TicketLog),
      tag: "tickets",
      summary: "A ticket's state history (logged at, log, agent, employee, signature)",
      access: staff,
      params: IdParams,
      handler: ({ caller, params }) => tickets.logs(caller, params.id),
    }),
    route({
      method: "GET",
      path: "/ticketStates/",
      response: z.array(TicketState),
      tag: "tickets",
      summary: "Ticket states in order",
      access: staff,
      handler: () => tickets.states(),
    }),
    route({
      method: "PUT",
      path: "/tickets/changeState",
      response: StateChangeResult,
      tag: "tickets",
      summary: "Sets a state on tickets and all their lines, with an optional signature",
      access: staff,
      body: StateChange,
      handler: ({ caller, body }) => tickets.changeState(caller, body),
    }),
    route({
      method: "PUT",
      path: "/tickets/paidFor/:id",
      response: Ticket,
      tag: "tickets",
      summary:
        "Pays the ticket in full (?amount= euros: a part, for a split tender) by ?method=cash|card|other (default cash; ?tendered= euros handed over); never lowers what was paid",
      access: staff,
      params: IdParams,
      query: PayQuery.extend({ amount: z.coerce.number().finite().min(0).max(1_000_000).optional() }),
      handler: async ({ caller, params, query }) =>
        ticketOut(await tickets.payInFull(caller, params.id, payWith(query), query.amount === undefined ? null : toCents(query.amount))),
    }),
    route({
      method: "GET",
      path: "/tickets/children/:id",
      response: z.array(Item),
      tag: "tickets",
      summary: "A ticket's items",
      access: staff,
      params: IdParams,
      handler: async ({ caller, params }) => (await tickets.children(caller, params.id)).map(itemOut),
    }),
    route({
      method: "GET",
      path: "/tickets/customer/:id",
      response: z.array(TicketSummary),
      tag: "tickets",
      summary: "A customer's tickets, newest first",
      access: staff,
      params: IdParams,
      handler: async ({ caller, params }) => (await tickets.byCustomer(caller, params.id)).map(summaryOut),
    }),
    route({
      method: "GET",
      path: "/tickets/lastnonconfirmed/:id",
      response: Ticket,
      tag: "tickets",
      summary: "The customer's last unconfirmed ticket, or 404",
      access: staff,
      params: IdParams,
      handler: async ({ caller, params }) => ticketOut(await tickets.lastNonConfirmed(caller, params.id)),
    }),
    route({
      method: "GET",
      path: "/tickets/:id",
      response: Ticket,
      tag: "tickets",
      summary: "One ticket with items and state history",
      access: staff,
      params: IdParams,
      handler: async ({ caller, params }) => ticketOut(await tickets.view(caller, params.id)),
    }),
    route({
      method: "POST",
      path: "/tickets/",
      response: Ticket,
      tag: "tickets",
      summary:
        "Opens a ticket (pickup and delivery default to 7 days ahead; when the van goes, moved to the first day with room in the customer's locality); a stop on a full day needs a manager's approval",
      access: staff,
      body: TicketBody.extend(WithApproval.shape),
      idempotent: true,
      handler: async ({ caller, body, client }) => {
        const { approval, ...input } = body;
        return ticketOut(
          await tickets.create(
            caller,
            { ...input, pickup_charge: toCents(input.pickup_charge ?? 0), delivery_charge: toCents(input.delivery_charge ?? 0) },
            approvalOf(body, client),
          ),
        );
      },
    }),
    route({
      method: "GET",
      path: "/tickets/:id/addresses",
      response: z.array(Address),
      tag: "tickets",
      summary: "Addresses the ticket's customer may be visited at: home first, then those of their tickets",
      access: staff,
      params: IdParams,
      handler: ({ caller, params }) => tickets.customerAddresses(caller, params.id),
    }),
    route({
      method: "DELETE",
      path: "/tickets/:id",
      response: z.literal(true),
      tag: "tickets",
      summary: "Deletes a ticket without payments; one with items needs a manager or admin, or their approval",
      access: staff,
      params: IdParams,
      body: WithApproval,
      handler: ({ caller, params, body, client }) => tickets.remove(caller, params.id, approvalOf(body, client)),
    }),
    route({
      method: "PUT",
      path: "/tickets/:id/confirm",
      response: Ticket,
      tag: "tickets",
      summary: "Confirms a ticket",
      access: staff,
      params: IdParams,
      handler: async ({ caller, params }) => ticketOut(await tickets.confirm(caller, params.id)),
    }),
    route({
      method: "PUT",
      path: "/tickets/:id/pickup",
      response: Ticket,
      tag: "tickets",
      summary: "Sets the pickup date; a pickup from the client on a full day needs a manager's approval",
      access: staff,
      params: IdParams,
      query: z.object({ date: z.union([IsoDate, z.literal("")]) }),
      body: WithApproval,
      handler: async ({ caller, params, query, body, client }) =>
        ticketOut(await tickets.setOptions(caller, params.id, { pickup_date: query.date || null }, approvalOf(body, client))),
    }),
    route({
      method: "PUT",
      path: "/tickets/:id/delivery",
      response: Ticket,
      tag: "tickets",
      summary: "Sets the delivery date; an empty date removes it; a delivery to the client on a full day needs a manager's approval",
      access: staff,
      params: IdParams,
      query: z.object({ date: z.union([IsoDate, z.literal("")]).default("") }),
      body: WithApproval,
      handler: async ({ caller, params, query, body, client }) =>
        ticketOut(await tickets.setOptions(caller, params.id, { delivery_date: query.date || null }, approvalOf(body, client))),
    }),
    route({
      method: "PUT",
      path: "/tickets/:id/delivery/:value",
      response: Ticket,
      tag: "tickets",
      summary: "Turns delivery to the client on or off",
      access: staff,
      params: z.object({ id: IdParams.shape.id, value: bool }),
      body: WithApproval,
      handler: async ({ caller, params, body, client }) =>
        ticketOut(await tickets.setOptions(caller, params.id, { delivery_to_client: params.value }, approvalOf(body, client))),
    }),
    route({
      method: "PUT",
      path: "/tickets/:id/discount",
      response: Ticket,
      tag: "tickets",
      summary: "Sets the ticket discount (percent, clamped 0..100); above the discount limit, employees and drivers need a manager's approval",
      access: staff,
      params: IdParams,
      query: z.object({ discount: z.coerce.number().finite() }),
      body: WithApproval,
      handler: async ({ caller, params, query, body, client }) =>
        ticketOut(await tickets.setDiscount(caller, params.id, query.discount, approvalOf(body, client))),
    }),
    route({
      method: "PUT",
      path: "/tickets/:id/deliveryPickupOptions",
      response: Ticket,
      tag: "tickets",
      summary:
        "Pickup and delivery options: the spec's query (date = delivery date, delivery, pickup, pickupComment, deliveryComment) and/or a body with the days, addresses (null: the customer's home) and charges in euros; a van stop on a full day needs a manager's approval",
      access: staff,
      params: IdParams,
      query: z.object({
        date: IsoDate.optional(),
        delivery: bool.optional(),
        pickup: bool.optional(),
        pickupComment: z.string().max(500).optional(),
        deliveryComment: z.string().max(500).optional(),
      }),
      body: TicketOptionsBody,
      handler: async ({ caller, params, query, body, client }) => {
        const { approval, pickup_charge, delivery_charge, ...options } = body;
        const fromQuery: TicketOptionsInput = {
          delivery_date: query.date,
          delivery_to_client: query.delivery,
          pickup_from_client: query.pickup,
          pickup_comment: query.pickupComment,
          delivery_comment: query.deliveryComment,
        };
        const fromBody: TicketOptionsInput = {
          ...options,
          pickup_charge: pickup_charge === undefined ? undefined : toCents(pickup_charge),
          delivery_charge: delivery_charge === undefined ? undefined : toCents(delivery_charge),
        };
        const set = definedOnly({ ...fromQuery, ...definedOnly(fromBody) });
        for (const k of Object.keys(set) as (keyof TicketOptionsInput)[]) {
          if (fromQuery[k] !== undefined && fromBody[k] !== undefined && fromQuery[k] !== fromBody[k])
            throw unprocessable(`${k}: given twice (query and body) with different values`);
        }
        return ticketOut(await tickets.setOptions(caller, params.id, set, approvalOf(body, client)));
      },
    }),

    // ---- items
    route({
      method: "GET",
      path: "/ticketSubCategory/express/",
      response: z.array(ExpressItem),
      tag: "items",
      summary: "Express items not yet delivered",
      access: { roles: ["admin", "manager", "employee"] },
      handler: ({ caller }) => items.express(caller),
    }),
    route({
      method: "PUT",
      path: "/ticketSubCategory/changeState",
      response: StateChangeResult,
      tag: "items",
      summary: "Sets a state on items, with an optional signature",
      access: staff,
      body: StateChange,
      handler: ({ caller, body }) => items.changeState(caller, body),
    }),
    route({
      method: "POST",
      path: "/ticketSubCategory/duplicate/:id/quantity/:n",
      response: z.array(Item),
      tag: "items",
      summary: "Copies an item n times",
      access: staff,
      params: z.object({ id: IdParams.shape.id, n: z.coerce.number().int().min(-1_000_000).max(100) }),
      handler: async ({ caller, params }) => (await items.duplicate(caller, params.id, params.n)).map(itemOut),
    }),
    route({
      method: "PUT",
      path: "/ticketSubCategory/paidFor/:id/:amount",
      response: Item,
      tag: "items",
      summary: "Takes a payment for an item; ?full=true pays what is left; ?method=cash|card|other (default cash), ?tendered= euros handed over",
      access: staff,
      params: z.object({ id: IdParams.shape.id, amount: z.coerce.number().finite().min(0).max(1_000_000) }),
      query: PayQuery.extend({ full: bool.optional() }),
      handler: async ({ caller, params, query }) => itemOut(await items.pay(caller, params.id, toCents(params.amount), query.full ?? false, payWith(query))),
    }),
    route({
      method: "PUT",
      path: "/ticketSubCategory/sorted/:id",
      response: Item,
      tag: "items",
      summary: "Toggles the sorted flag of one piece (?item=piece)",
      access: staff,
      params: IdParams,
      query: z.object({ item: z.string().min(1).max(100) }),
      handler: async ({ caller, params, query }) => itemOut(await items.toggleSorted(caller, params.id, query.item)),
    }),
    route({
      method: "PUT",
      path: "/ticketSubCategory/processDate/:id/:datetime",
      response: Item,
      tag: "items",
      summary: "Sets an item's process date",
      access: staff,
      params: z.object({
        id: IdParams.shape.id,
        datetime: z
          .string()
          .max(40)
          .refine((s) => !Number.isNaN(Date.parse(s)), "must be a date and time"),
      }),
      handler: async ({ caller, params }) => itemOut(await items.setProcessDate(caller, params.id, new Date(params.datetime).toISOString())),
    }),
    route({
      method: "GET",
      path: "/ticketSubCategory/:id",
      response: Item,
      tag: "items",
      summary: "One item",
      access: staff,
      params: IdParams,
      handler: async ({ caller, params }) => itemOut(await items.get(caller, params.id)),
    }),
    route({
      method: "POST",
      path: "/ticketSubCategory/",
      response: z.array(Item),
      tag: "items",
      summary: "Adds an item to a ticket (?copies=n, default 1)",
      access: staff,
      query: z.object({ copies: z.coerce.number().int().min(1).max(100).default(1) }),
      body: ItemBody,
      idempotent: true,
      handler: async ({ caller, body, query }) => (await items.add(caller, body, query.copies)).map(itemOut),
    }),
    route({
      method: "PUT",
      path: "/ticketSubCategory/:id",
      response: Item,
      tag: "items",
      summary: "Updates an item; a discount above the limit or an override below the computed total needs a manager's approval for employees and drivers",
      access: staff,
      params: IdParams,
      body: ItemUpdate.extend(WithApproval.shape),
      handler: async ({ caller, params, body, client }) =>
        itemOut(
          await items.update(
            caller,
            params.id,
            { ...body, total_override: body.total_override == null ? body.total_override : toCents(body.total_override) },
            approvalOf(body, client),
          ),
        ),
    }),
    route({
      method: "DELETE",
      path: "/ticketSubCategory/:id",
      response: z.literal(true),
      tag: "items",
      summary: "Deletes an item without payments; on a confirmed ticket, a manager or admin, or their approval",
      access: staff,
      params: IdParams,
      body: WithApproval,
      handler: ({ caller, params, body, client }) => items.remove(caller, params.id, approvalOf(body, client)),
    }),
    route({
      method: "POST",
      path: "/ticketSubCategoryActions/",
      response: Item,
      tag: "items",
      summary: "Adds an action to an item (images, or override_images, when the action requires them)",
      access: staff,
      body: ItemActionBody,
      idempotent: true,
      handler: async ({ caller, body }) => itemOut(await items.addAction(caller, { ...body, action_id: (body.action_id ?? body.actionID)! })),
    }),
    route({
      method: "DELETE",
      path: "/ticketSubCategoryActions/",
      response: Item,
      tag: "items",
      summary: "Removes an action from an item (?id= or body {id})",
      access: staff,
      query: IdBody.partial(),
      body: IdBody.partial(),
      handler: async ({ caller, query, body }) => itemOut(await items.removeAction(caller, need(query.id ?? body.id))),
    }),
    route({
      method: "POST",
      path: "/ticketSubCategoryModifier/",
      response: Item,
      tag: "items",
      summary: "Adds a modifier to an item",
      access: staff,
      body: ItemModifierBody,
      idempotent: true,
      handler: async ({ caller, body }) => itemOut(await items.addModifier(caller, body)),
    }),
    route({
      method: "DELETE",
      path: "/ticketSubCategoryModifier/",
      response: Item,
      tag: "items",
      summary: "Removes a modifier from an item (?id= or body {id})",
      access: staff,
      query: IdBody.partial(),
      body: IdBody.partial(),
      handler: async ({ caller, query, body }) => itemOut(await items.removeModifier(caller, need(query.id ?? body.id))),
    }),
  ];
}

/** The fields that were given (an absent option leaves the ticket's value as it is). */
function definedOnly<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function need(id: number | undefined): number {
  if (!id) throw unprocessable("id: is required");
  return id;
}
