import { z } from "zod";
import { HQ_STAFF, route } from "../../http/route";
import { fileResponse } from "../reports/routes";
import { AccountCode, AccountCodesBody, JournalQuery } from "./model";
import type { BooksService } from "./service";

const admins = { roles: ["admin"] } as const;

/** The accountant's journal and its account codes (issue 34). */
export function booksRoutes(books: BooksService) {
  return [
    route({
      method: "GET",
      path: "/accounting/journal",
      tag: "books",
      summary:
        "The accountant's journal of a range of till days, one balanced journal per day and shop (sales by VAT rate, takings by tender with charges on account as receivable, refunds, deposits, till variances, payments on account and credit notes): format=xero|quickbooks|csv; HQ: every shop or ?agent=; 204 when empty",
      access: admins,
      query: JournalQuery,
      raw: true,
      handler: async ({ caller, query, request }) => fileResponse(await books.journal(caller, query, request.signal)),
    }),
    route({
      method: "GET",
      path: "/accounting/accounts",
      response: z.array(AccountCode),
      tag: "books",
      summary: "The account code and name each kind of journal line goes to (defaults until HQ sets them)",
      access: admins,
      handler: () => books.accounts(),
    }),
    route({
      method: "PUT",
      path: "/accounting/accounts",
      response: z.array(AccountCode),
      tag: "books",
      summary: "Sets account codes and names of journal lines (HQ staff; the others keep theirs); audited",
      access: HQ_STAFF,
      body: AccountCodesBody,
      handler: ({ caller, body }) => books.saveAccounts(caller, body.accounts),
    }),
  ];
}
