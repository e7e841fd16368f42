// A customer's own data (issue 35). Export (GDPR Art. 15 and 20): everything the chain holds
// about them as one JSON document, streamed: the record, preferences, addresses, tickets with
// items and payments (a page at a time, so a customer of twenty years does not sit in memory),
// messages both ways, pickup reminders and the audit rows about them. Forget (Art. 17): name,
// contacts, identity and addresses blanked, message texts and numbers removed, while tickets
// and payments stay as they are for the tax years (the retention duty wins there, Art. 17(3)(b)).
// Both are audited, without the data itself in the audit row.
import { and, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { customers } from "../../../db/schema";
import type { Clock } from "../../platform/clock";
import { audit } from "../audit/audit";
import { auditAbout } from "../audit/reads";
import type { EmployeeCaller } from "../auth/caller";
import { customerMessages, forgetCustomerMessages } from "../messaging/privacy";
import { paymentsOfTickets } from "../money/privacy";
import { blankAddresses } from "../places/privacy";
import { namedAddresses } from "../places/reads";
import { customerTicketAddressIds, customerTicketsPage } from "../tickets/privacy";

type Customer = typeof customers.$inferSelect;
/** Tickets read per page of the export. */
const PAGE = 200;

export const FORGOTTEN_NAME = "Erased customer";

export function createCustomerPrivacy({
  db,
  clock,
  load,
  preferenceIds,
}: {
  db: Db;
  clock: Clock;
  /** The customer, checked against the caller's shop (404 otherwise). */
  load: (caller: EmployeeCaller, id: number) => Promise<Customer>;
  preferenceIds: (id: number) => Promise<number[]>;
}) {
  return {
    /** GET /customers/{id}/export: application/json, downloaded as a file. */
    async export(caller: EmployeeCaller, id: number): Promise<Response> {
      const c = await load(caller, id);
      const at = clock.now();
      await audit(db, at, caller, "export", "customer", id, { gdpr: "Art. 15/20" });
      const enc = new TextEncoder();
      const ticketIds: number[] = [];
      async function* parts(): AsyncGenerator<string> {
        const addressIds = [...new Set([c.address_id, ...(await customerTicketAddressIds(db, id))].filter((x): x is number => x !== null))];
        yield `{"exported_at":${JSON.stringify(at.toISOString())},"customer":${JSON.stringify(c)}`;
        yield `,"preference_ids":${JSON.stringify(await preferenceIds(id))}`;
        yield `,"addresses":${JSON.stringify([...(await namedAddresses(db, addressIds)).values()])}`;
        yield `,"tickets":[`;
        let after = 0;
        let first = true;
        for (;;) {
          const page = await customerTicketsPage(db, id, after, PAGE);
          if (!page.length) break;
          const pays = await paymentsOfTickets(
            db,
            page.map((t) => t.id),
          );
          for (const t of page) {
            ticketIds.push(t.id);
            yield `${first ? "" : ","}${JSON.stringify({ ...t, payments: pays.filter((p) => p.ticket_id === t.id) })}`;
            first = false;
          }
          after = page.at(-1)!.id;
          if (page.length < PAGE) break;
        }
        yield `],"messages":${JSON.stringify(await customerMessages(db, id))}`;
        const about = [...(await auditAbout(db, "customer", [id])), ...(await auditAbout(db, "ticket", ticketIds))];
        yield `,"audit":${JSON.stringify(about)}}`;
      }
      const it = parts();
      const body = new ReadableStream<Uint8Array>({
        async pull(ctl) {
          const n = await it.next();
          if (n.done) ctl.close();
          else ctl.enqueue(enc.encode(n.value));
        },
      });
      return new Response(body, {
        headers: {
          "content-type": "application/json; charset=utf-8",
          "content-disposition": `attachment; filename="customer-${id}.json"`,
          "cache-control": "no-store",
        },
      });
    },

    /** POST /customers/{id}/forget: anonymised in one transaction; tickets and payments untouched. */
    async forget(caller: EmployeeCaller, id: number): Promise<{ id: number; forgotten_at: string }> {
      const c = await load(caller, id);
      const at = clock.now();
      const addressIds = [...new Set([c.address_id, ...(await customerTicketAddressIds(db, id))].filter((x): x is number => x !== null))];
      // An address another customer calls home stays (a family at one door).
      const shared = addressIds.length
        ? (
            await db
              .select({ a: customers.address_id })
              .from(customers)
              .where(and(inArray(customers.address_id, addressIds), ne(customers.id, id)))
          ).map((r) => r.a)
        : [];
      await db.transaction(async (tx) => {
        await tx
          .update(customers)
          .set({
            title: "",
            full_name: FORGOTTEN_NAME,
            first_name: "",
            last_name: "",
            address_id: null,
            mobile: "",
            landline: "",
            email_address: "",
            date_of_birth: null,
            id_card: "",
            occupation: "",
            comments: "",
            no_messages: true,
          })
          .where(eq(customers.id, id));
        await blankAddresses(
          tx,
          addressIds.filter((a) => !shared.includes(a)),
        );
        await forgetCustomerMessages(tx, id, at.toISOString());
        await audit(tx, at, caller, "forget", "customer", id, { gdpr: "Art. 17", addresses: addressIds.length });
      });
      return { id, forgotten_at: at.toISOString() };
    },
  };
}
