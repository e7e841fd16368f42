/**
 * E-mailing an invoice with its PDF (issue 34), through the outbox and the SMTP channel, exactly
 * once: the outbox row and the invoice's send row (unique per invoice and round) are written
 * in one transaction, so a second POST /send, or a retry, answers the first send instead of
 * mailing again. Sending it again is deliberate: ?again=true opens the next round. The PDF is
 * made when the sender takes the row (the outbox names it "invoice:<id>"), so a long queue
 * holds no documents.
 */
import { desc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accounts, invoiceSends } from "../../../db/schema";
import type { Clock } from "../../platform/clock";
import { unprocessable } from "../../platform/errors";
import { audit } from "../audit/audit";
import type { EmployeeCaller } from "../auth/caller";
import type { AgentReads } from "../agents/reads";
import { invoicePdf } from "./documents";
import { type InvoiceService, invoiceRow } from "./invoices";
import type { Exec } from "./service";
import { displayDate, euroFromEuros } from "../../domain/format";

/** What the accounts module needs of messaging: an e-mail row written in its transaction. */
export interface Mailer {
  queueEmail(
    q: Exec,
    m: { key: string; agent_id: number; employee_id: number; to: string; subject: string; text: string; attachment: string },
  ): Promise<number>;
  kick(): void;
}

export const ATTACHMENT_PREFIX = "invoice:";

export function createInvoiceSender({
  db,
  clock,
  invoices,
  mailer,
  shops,
}: {
  db: Db;
  clock: Clock;
  invoices: InvoiceService;
  mailer: Mailer;
  shops: AgentReads;
}) {
  return {
    async send(caller: EmployeeCaller, id: number, again: boolean) {
      const inv = await invoiceRow(db, caller, id);
      const [a] = await db.select().from(accounts).where(eq(accounts.id, inv.account_id));
      if (!a?.email) throw unprocessable("The account has no billing e-mail address: set one on the account first");
      const shop = (await shops.shop(inv.agent_id))?.name ?? "";
      const sent = await db.transaction(async (tx) => {
        const [last] = await tx.select().from(invoiceSends).where(eq(invoiceSends.invoice_id, id)).orderBy(desc(invoiceSends.round)).limit(1);
        if (last && !again) return false;
        const round = (last?.round ?? 0) + 1;
        const full = await invoices.full(inv);
        const messageId = await mailer.queueEmail(tx, {
          key: `invoice-${id}-${round}`,
          agent_id: inv.agent_id,
          employee_id: caller.employee.id,
          to: a.email,
          subject: `Invoice ${inv.number}${shop ? ` from ${shop}` : ""}`,
          text: [
            a.billing_contact ? `Dear ${a.billing_contact},` : "Hello,",
            "",
            `Please find attached invoice ${inv.number} of ${displayDate(inv.issued_on)} for ${euroFromEuros(full.total)}, due on ${displayDate(inv.due_on)}.`,
            "",
            shop,
          ].join("\n"),
          attachment: `${ATTACHMENT_PREFIX}${id}`,
        });
        await tx
          .insert(invoiceSends)
          .values({ invoice_id: id, round, message_id: messageId, recipient: a.email, employee_id: caller.employee.id, created_at: clock.now().toISOString() });
        await audit(tx, clock.now(), caller, "send", "invoice", id, { round, to: a.email, message_id: messageId });
        return true;
      });
      if (sent) mailer.kick();
      return invoices.get(caller, id);
    },

    /** The outbox's attachment of "invoice:<id>": the invoice's PDF as it stands when it is sent. */
    async attachment(ref: string) {
      if (!ref.startsWith(ATTACHMENT_PREFIX)) return [];
      const id = Number(ref.slice(ATTACHMENT_PREFIX.length));
      const [row] = await db.select().from(invoiceSends).where(eq(invoiceSends.invoice_id, id)).limit(1);
      if (!row) return [];
      const inv = await invoices.full((await db.query.invoices.findFirst({ where: (t, { eq }) => eq(t.id, id) }))!);
      const shop = (await shops.shop(inv.agent_id)) ?? { id: inv.agent_id, name: `Shop ${inv.agent_id}`, landline: "", mobile: "" };
      const { pdf, filename } = await invoicePdf(inv, shop);
      return [{ filename, content: new Uint8Array(pdf), contentType: "application/pdf" }];
    },
  };
}
export type InvoiceSender = ReturnType<typeof createInvoiceSender>;
