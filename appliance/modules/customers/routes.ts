import { z } from "zod";
import { ROLES, route } from "../../http/route";
import { toEuros } from "../../domain/money";
import { IdParams } from "../../domain/schemas";
import {
  Customer,
  CustomerBody,
  CustomerDetail,
  CustomerTicket,
  CustomerListQuery,
  CustomerListRow,
  CustomerPreference,
  CustomerQuery,
  DateParams,
  PreferencesBulkBody,
} from "./model";
import { type CustomerService, LOOKUP_FIELDS } from "./service";

const staff = { roles: ROLES };

/** The route edge: the service's cents become the API's euros. */
function inEuros<
  T extends { ticket_total: number; total_spent?: number; outstanding_balance?: number; simple_tickets?: { total: number; total_paid: number }[] },
>(c: T) {
  return {
    ...c,
    ticket_total: toEuros(c.ticket_total),
    ...(c.total_spent !== undefined ? { total_spent: toEuros(c.total_spent) } : {}),
    ...(c.outstanding_balance !== undefined ? { outstanding_balance: toEuros(c.outstanding_balance) } : {}),
    ...(c.simple_tickets ? { simple_tickets: c.simple_tickets.map((t) => ({ ...t, total: toEuros(t.total), total_paid: toEuros(t.total_paid) })) } : {}),
  };
}

const withoutApproval = <T extends { approval?: unknown }>({ approval: _, ...rest }: T) => rest;

export function customerRoutes(customers: CustomerService) {
  return [
    route({
      method: "GET",
      path: "/customers/:id/export",
      tag: "customers",
      summary:
        "Everything the chain holds about the customer as one JSON file (GDPR Art. 15 and 20): record, preferences, addresses, tickets with items and payments (cents), messages both ways, pickup reminders, audit rows; audited. HQ or an admin of the customer's shop",
      access: { roles: ["admin"] },
      params: IdParams,
      raw: true,
      handler: ({ caller, params }) => customers.export(caller, params.id),
    }),
    route({
      method: "POST",
      path: "/customers/:id/forget",
      tag: "customers",
      summary:
        "Erases the customer (GDPR Art. 17): name, contacts, identity, addresses and message texts blanked; tickets and payments stay for the tax years; audited. HQ or an admin of the customer's shop",
      access: { roles: ["admin"] },
      params: IdParams,
      response: z.object({ id: z.number(), forgotten_at: z.string() }),
      handler: ({ caller, params }) => customers.forget(caller, params.id),
    }),
    route({
      method: "GET",
      path: "/customers/",
      tag: "customers",
      summary: "Customers: ?term&limit fuzzy search; ?{mobile|landline|id_card|email_address}= existence lookup (404 when none); else newest first",
      access: staff,
      query: CustomerListQuery,
      // A lookup by a contact field answers one customer; a search or the list, an array.
      response: z.union([Customer, z.array(CustomerListRow), z.array(Customer)]),
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
      params: DateParams,
      response: z.array(Customer),
      handler: ({ caller, params }) => customers.byDeliveryDate(caller, params.date),
    }),
    route({
      method: "GET",
      path: "/customers/:id",
      tag: "customers",
      summary: "One customer; statistics for admins; ?simple=true adds the last 10 tickets",
      access: staff,
      params: IdParams,
      query: CustomerQuery,
      response: CustomerDetail,
      handler: async ({ caller, params, query }) => inEuros(await customers.get(caller, params.id, query.simple === "true")),
    }),
    route({
      method: "GET",
      path: "/customers/:id/tickets",
      tag: "customers",
      summary: "The customer's tickets, newest first, with the agent that took each (the caller's shop's; HQ all)",
      access: staff,
      params: IdParams,
      response: z.array(CustomerTicket),
      handler: async ({ caller, params }) =>
        (await customers.tickets(caller, params.id)).map((t) => ({
          ...t,
          total: toEuros(t.total),
          total_paid: toEuros(t.total_paid),
          balance: toEuros(t.balance),
        })),
    }),
    route({
      method: "POST",
      path: "/customers/",
      tag: "customers",
      summary: "Creates a customer, with its address and preferences when given, in one transaction",
      access: staff,
      body: CustomerBody,
      idempotent: true,
      response: Customer,
      handler: ({ caller, body, client }) => customers.create(caller, withoutApproval(body), { pin: body.approval?.pin, client }),
    }),
    route({
      method: "PUT",
      path: "/customers/:id",
      tag: "customers",
      summary: "Updates a customer, with its address and preferences when given, in one transaction",
      access: staff,
      params: IdParams,
      body: CustomerBody.partial(),
      response: Customer,
      handler: ({ caller, params, body, client }) => customers.update(caller, params.id, withoutApproval(body), { pin: body.approval?.pin, client }),
    }),
    route({
      method: "DELETE",
      path: "/customers/:id",
      tag: "customers",
      summary: "Removes a customer whose ticket total is 0 or less",
      access: { roles: ["admin", "manager"] },
      params: IdParams,
      response: z.literal(true),
      handler: ({ caller, params }) => customers.remove(caller, params.id),
    }),
    route({
      method: "GET",
      path: "/customerPreferences/customers/:id",
      tag: "customers",
      summary: "A customer's preferences",
      access: staff,
      params: IdParams,
      response: z.array(CustomerPreference),
      handler: ({ caller, params }) => customers.preferencesOf(caller, params.id),
    }),
    route({
      method: "POST",
      path: "/customerPreferences/bulk",
      tag: "customers",
      summary: "Replaces a customer's preferences",
      access: staff,
      body: PreferencesBulkBody,
      response: z.array(CustomerPreference),
      handler: ({ caller, body }) => customers.savePreferences(caller, body.customer_id, body.preferences),
    }),
  ];
}
