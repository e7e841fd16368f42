import { z } from "zod";
import { pdfResponse } from "../../../drivers/pdf/document";
import { IdParams } from "../../domain/schemas";
import { HQ_STAFF, ROLES, route } from "../../http/route";
import { SECURITY_HEADERS } from "../../http/security";
import type { AgentReads } from "../agents/reads";
import type { Books } from "./books";
import { invoicePdf } from "./documents";
import type { AccountReports } from "./reports";
import type { Clock } from "../../platform/clock";
import { businessDay } from "../../domain/dates";
import type { InvoiceService } from "./invoices";
import {
  Account,
  ChargedTicket,
  AccountInput,
  AccountPayment,
  AccountsQuery,
  Aged,
  AgedQuery,
  CreditInput,
  CreditNote,
  Invoice,
  InvoiceInput,
  InvoiceSummary,
  PaymentInput,
  PeriodQuery,
  Prefix,
  PrefixInput,
  PrefixParams,
  SendQuery,
  Statement,
} from "./model";
import type { InvoiceSender } from "./send";
import type { AccountService } from "./service";

const staff = { roles: ROLES.filter((r) => r !== "driver") };
/** Money and terms of an account: managers and admins. */
const managers = { roles: ["admin", "manager"] } as const;

const csvResponse = (body: ReadableStream<Uint8Array>, name: string) =>
  new Response(body, {
    headers: {
      ...SECURITY_HEADERS,
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name.replace(/[^\w .-]/g, "_")}"`,
      "cache-control": "no-store",
    },
  });

export function accountRoutes(d: {
  accounts: AccountService;
  invoices: InvoiceService;
  books: Books;
  /** The statement and the aged report, made in a process of their own (reports.ts). */
  reports: AccountReports;
  sender: InvoiceSender;
  shops: AgentReads;
  clock: Clock;
}) {
  const { accounts, invoices, books, sender } = d;
  return [
    route({
      method: "GET",
      path: "/accounts/",
      response: z.array(Account),
      tag: "accounts",
      summary: "Business accounts billed by the caller's shop (HQ: every shop's, or ?agent=)",
      access: staff,
      query: AccountsQuery,
      handler: ({ caller, query }) => accounts.list(caller, query.agent),
    }),
    route({
      method: "POST",
      path: "/accounts/",
      response: Account,
      tag: "accounts",
      summary: "Opens a business account: name, the customers that may charge to it, billing contact and e-mail, VAT number, terms, credit limit, discount",
      access: managers,
      body: AccountInput,
      idempotent: true,
      handler: ({ caller, body }) => accounts.create(caller, body),
    }),
    route({
      method: "GET",
      path: "/accounts/aged",
      response: Aged,
      tag: "accounts",
      summary:
        "Every account's balance by the age of its open invoices (0-30, 31-60, 61-90, 90+ days) and what is not invoiced yet; ?format=csv; at HQ in HQ mode also every site's copy (?site= one)",
      access: managers,
      query: AgedQuery,
      raw: true,
      files: ["text/csv"],
      handler: async ({ caller, query, request }) => {
        if (query.format === "csv") {
          const site = query.site ? ` ${query.site}` : "";
          return csvResponse(d.reports.agedCsv(caller, request.signal, query.site), `Aged receivables${site} ${businessDay(d.clock.now())}.csv`);
        }
        return Response.json({ success: true, data: await d.reports.aged(caller, query.site) }, { headers: SECURITY_HEADERS });
      },
    }),
    route({
      method: "GET",
      path: "/accounts/:id",
      response: Account,
      tag: "accounts",
      summary: "An account with its balance (the sum of its rows)",
      access: staff,
      params: IdParams,
      handler: ({ caller, params }) => accounts.get(caller, params.id),
    }),
    route({
      method: "GET",
      path: "/accounts/:id/charges",
      response: z.array(ChargedTicket),
      tag: "accounts",
      summary: "The tickets charged to an account, newest first (at most 500), with the invoice that billed each",
      access: staff,
      params: IdParams,
      handler: ({ caller, params }) => accounts.charges(caller, params.id),
    }),
    route({
      method: "PUT",
      path: "/accounts/:id",
      response: Account,
      tag: "accounts",
      summary: "Changes an account's details, customers, terms and limit (its shop stays)",
      access: managers,
      params: IdParams,
      body: AccountInput,
      handler: ({ caller, params, body }) => accounts.update(caller, params.id, body),
    }),
    route({
      method: "POST",
      path: "/accounts/:id/invoices",
      response: Invoice,
      tag: "accounts",
      summary: "Invoices the account's charges of a period not invoiced yet, numbered in the shop's series",
      access: managers,
      params: IdParams,
      body: InvoiceInput,
      idempotent: true,
      handler: ({ caller, params, body }) => invoices.create(caller, params.id, body),
    }),
    route({
      method: "GET",
      path: "/accounts/:id/invoices",
      response: z.array(InvoiceSummary),
      tag: "accounts",
      summary: "An account's invoices, oldest first, with what each still asks",
      access: staff,
      params: IdParams,
      handler: ({ caller, params }) => invoices.list(caller, params.id),
    }),
    route({
      method: "POST",
      path: "/accounts/:id/payments",
      response: AccountPayment,
      tag: "accounts",
      summary: "Money received on account: allocated as asked, else to the oldest open invoices; the rest stays as credit",
      access: managers,
      params: IdParams,
      body: PaymentInput,
      idempotent: true,
      handler: ({ caller, params, body }) => books.pay(caller, params.id, body),
    }),
    route({
      method: "GET",
      path: "/accounts/:id/statement",
      response: Statement,
      tag: "accounts",
      summary:
        "Opening balance, invoices, credit notes, payments and closing balance of a period (?from&to, shop days); ?format=csv; at HQ ?site= an account of that site's copy",
      access: staff,
      params: IdParams,
      query: PeriodQuery,
      raw: true,
      files: ["text/csv"],
      handler: async ({ caller, params, query, request }) => {
        if (query.format === "csv") {
          const s = await d.reports.statementCsv(caller, params.id, query.from, query.to, request.signal, query.site);
          return csvResponse(s.body, `Statement ${s.name} ${query.from} ${query.to}.csv`);
        }
        const s = await d.reports.statement(caller, params.id, query.from, query.to, query.site);
        return Response.json({ success: true, data: s }, { headers: SECURITY_HEADERS });
      },
    }),
    route({
      method: "GET",
      path: "/invoices/:id",
      response: Invoice,
      tag: "accounts",
      summary: "An invoice: lines per ticket and item, VAT per rate, totals, credit notes, what is paid and still due, its sends",
      access: staff,
      params: IdParams,
      handler: ({ caller, params }) => invoices.get(caller, params.id),
    }),
    route({
      method: "GET",
      path: "/invoices/:id/pdf",
      tag: "accounts",
      summary: "The invoice as a PDF: the shop's details, the customer's VAT number, DD/MM/YYYY dates",
      access: staff,
      params: IdParams,
      queryToken: "token",
      raw: true,
      files: ["application/pdf"],
      handler: async ({ caller, params }) => {
        const inv = await invoices.get(caller, params.id);
        const shop = (await d.shops.shop(inv.agent_id)) ?? { id: inv.agent_id, name: `Shop ${inv.agent_id}`, landline: "", mobile: "" };
        const { pdf, filename } = await invoicePdf(inv, shop);
        return pdfResponse(pdf, filename, true, SECURITY_HEADERS);
      },
    }),
    route({
      method: "POST",
      path: "/invoices/:id/credit",
      response: CreditNote,
      tag: "accounts",
      summary: "A credit note: takes money off the invoice (at most what it still asks), numbered in the shop's credit-note series",
      access: managers,
      params: IdParams,
      body: CreditInput,
      idempotent: true,
      handler: ({ caller, params, body }) => invoices.credit(caller, params.id, body),
    }),
    route({
      method: "POST",
      path: "/invoices/:id/send",
      response: Invoice,
      tag: "accounts",
      summary: "E-mails the invoice with its PDF to the account's address once; a second send answers the first; ?again=true sends it again",
      access: managers,
      params: IdParams,
      query: SendQuery,
      idempotent: true,
      handler: ({ caller, params, query }) => sender.send(caller, params.id, query.again === "true"),
    }),
    route({
      method: "GET",
      path: "/invoicePrefixes/:agent",
      response: Prefix,
      tag: "accounts",
      summary: "A shop's invoice prefix (HQ sets it; until then S and the shop's id)",
      access: staff,
      params: PrefixParams,
      handler: ({ caller, params }) => invoices.prefix(caller, params.agent),
    }),
    route({
      method: "PUT",
      path: "/invoicePrefixes/:agent",
      response: Prefix,
      tag: "accounts",
      summary: "Sets a shop's invoice prefix (HQ), e.g. BKR: its invoices read BKR-2026-000123",
      access: HQ_STAFF,
      params: PrefixParams,
      body: PrefixInput,
      handler: ({ caller, params, body }) => invoices.setPrefix(caller, params.agent, body.prefix),
    }),
  ];
}
