import { z } from "zod";
import { ROLES, route } from "../../http/route";
import { IdParams, IsoDate, text } from "../../domain/schemas";
import { Approval } from "../approval/model";
import { type CustomerService, LOOKUP_FIELDS } from "./service";

const staff = { roles: ROLES };
export const TITLES = ["Mr.", "Mrs.", "Ms.", "Profs.", "Ing.", "Dr."] as const;
const digits = (max: number) => z.string().trim().max(max).regex(/^\+?[0-9 ]*$/, "must be digits");

const CustomerBody = z.object({
  title: z.union([z.enum(TITLES), z.literal("")]).optional(),
  full_name: text(120).min(1),
  address_id: z.number().int().positive().nullish(),
  mobile: digits(20).optional(),
  landline: digits(20).optional(),
  email_address: z.union([z.literal(""), z.email().max(200)]).optional(),
  date_of_birth: IsoDate.nullish(),
  id_card: text(30).optional(),
  discount: z.number().int().min(0).max(100).optional(),
  occupation: text(100).optional(),
  comments: text(2000).optional(),
  agent_id: z.number().int().positive().optional(),
  /** A manager's PIN when an employee or driver sets a discount above the limit. */
  approval: Approval.optional(),
});

const ListQuery = z.object({
  term: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  mobile: z.string().max(100).optional(),
  landline: z.string().max(100).optional(),
  id_card: z.string().max(100).optional(),
  email_address: z.string().max(200).optional(),
});

const withoutApproval = <T extends { approval?: unknown }>({ approval: _, ...rest }: T) => rest;

export function customerRoutes(customers: CustomerService) {
  return [
    route({
      method: "GET",
      path: "/customers/",
      tag: "customers",
      summary: "Customers: ?term&limit fuzzy search; ?{mobile|landline|id_card|email_address}= existence lookup (404 when none); else newest first",
      access: staff,
      query: ListQuery,
      handler: ({ caller, query }) => {
        const field = LOOKUP_FIELDS.find((f) => query[f] !== undefined);
        if (field) return customers.lookup(caller, field, query[field]!);
        if (query.term !== undefined) return customers.search(caller, query.term, query.limit, query.offset);
        return customers.list(caller, query.limit, query.offset);
      },
    }),
    route({
      method: "GET",
      path: "/customers/byDeliveryDate/:date",
      tag: "customers",
      summary: "Customers with a ticket delivering on that day",
      access: staff,
      params: z.object({ date: IsoDate }),
      handler: ({ caller, params }) => customers.byDeliveryDate(caller, params.date),
    }),
    route({
      method: "GET",
      path: "/customers/:id",
      tag: "customers",
      summary: "One customer; statistics for admins; ?simple=true adds the last 10 tickets",
      access: staff,
      params: IdParams,
      query: z.object({ simple: z.enum(["true", "false"]).optional() }),
      handler: ({ caller, params, query }) => customers.get(caller, params.id, query.simple === "true"),
    }),
    route({ method: "POST", path: "/customers/", tag: "customers", summary: "Creates a customer (the address is saved separately)", access: staff, body: CustomerBody, idempotent: true, handler: ({ caller, body, client }) => customers.create(caller, withoutApproval(body), { pin: body.approval?.pin, client }) }),
    route({ method: "PUT", path: "/customers/:id", tag: "customers", summary: "Updates a customer", access: staff, params: IdParams, body: CustomerBody.partial(), handler: ({ caller, params, body, client }) => customers.update(caller, params.id, withoutApproval(body), { pin: body.approval?.pin, client }) }),
    route({
      method: "DELETE",
      path: "/customers/:id",
      tag: "customers",
      summary: "Removes a customer whose ticket total is 0 or less",
      access: { roles: ["admin", "manager"] },
      params: IdParams,
      handler: ({ caller, params }) => customers.remove(caller, params.id),
    }),
    route({ method: "GET", path: "/customerPreferences/customers/:id", tag: "customers", summary: "A customer's preferences", access: staff, params: IdParams, handler: ({ caller, params }) => customers.preferencesOf(caller, params.id) }),
    route({
      method: "POST",
      path: "/customerPreferences/bulk",
      tag: "customers",
      summary: "Replaces a customer's preferences",
      access: staff,
      body: z.object({ customer_id: z.number().int().positive(), preferences: z.array(z.number().int().positive()).max(200) }),
      handler: ({ caller, body }) => customers.savePreferences(caller, body.customer_id, body.preferences),
    }),
  ];
}
