import { z } from "zod";
import { unprocessable } from "../../platform/errors";
import { ROLES, route } from "../../http/route";
import { eurosTextUpTo, IdParams, IsoDate } from "../../domain/schemas";
import { WithApproval } from "../approval/routes";
import { PayQuery } from "../money/model";
import type { ItemService } from "./items";
import { itemRoutes } from "./itemRoutes";
import { approvalOf, bool, payWith } from "./routeParts";
import { toCents } from "../../domain/money";
import {
  Item,
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

/** GET /tickets/?tab= (spec §7): which part of the list. */
const TICKET_TABS = ["all", "open", "done", "unconfirmed"] as const;
const many = z.union([z.string().max(100), z.array(z.string().max(100)).max(50)]).transform((v) => [v].flat());

const staff = { roles: ROLES };

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
      query: PayQuery.extend({ amount: eurosTextUpTo(1_000_000).optional() }),
      // ?method=account past the account's credit limit: a manager's PIN in the body (issue 34).
      body: WithApproval,
      // Moves money: a tablet that lost the answer retries with the same key (issue 31).
      idempotent: true,
      handler: async ({ caller, params, query, body, client }) =>
        ticketOut(
          await tickets.payInFull(
            caller,
            params.id,
            { ...payWith(query), approval: approvalOf(body, client) },
            query.amount === undefined ? null : toCents(query.amount),
          ),
        ),
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

    ...itemRoutes(items),
  ];
}

/** The fields that were given (an absent option leaves the ticket's value as it is). */
function definedOnly<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
