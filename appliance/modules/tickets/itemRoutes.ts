/** The item routes (spec §7 ticketSubCategory*): thin, the rules are in items.ts. */
import { z } from "zod";
import { unprocessable } from "../../platform/errors";
import { ROLES, route } from "../../http/route";
import { eurosTextUpTo, IdParams } from "../../domain/schemas";
import { WithApproval } from "../approval/routes";
import { PayQuery } from "../money/model";
import type { ItemService } from "./items";
import { toCents } from "../../domain/money";
import { ExpressItem, Item, ItemActionBody, ItemBody, ItemModifierBody, ItemUpdate, itemOut, StateChange, StateChangeResult } from "./model";
import { approvalOf, bool, payWith } from "./routeParts";

const IdBody = z.object({ id: z.coerce.number().int().positive() });

const staff = { roles: ROLES };

export function itemRoutes(items: ItemService) {
  return [
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
      params: z.object({ id: IdParams.shape.id, amount: eurosTextUpTo(1_000_000) }),
      query: PayQuery.extend({ full: bool.optional() }),
      // ?method=account past the account's credit limit: a manager's PIN in the body (issue 34).
      body: WithApproval,
      // Moves money: a tablet that lost the answer retries with the same key (issue 31).
      idempotent: true,
      handler: async ({ caller, params, query, body, client }) =>
        itemOut(await items.pay(caller, params.id, toCents(params.amount), query.full ?? false, { ...payWith(query), approval: approvalOf(body, client) })),
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

function need(id: number | undefined): number {
  if (!id) throw unprocessable("id: is required");
  return id;
}
