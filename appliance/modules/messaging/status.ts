// A ticket's status message: the template of the ticket's state rendered for its customer
// and shop, previewed exactly as it will go (issue 25: the ticket view shows it and asks
// first), then queued on a person's say-so, at most once a minute per ticket.
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { outgoingMessages } from "../../../db/schema";
import { displayDate, euro } from "../../domain/format";
import { NO_DELIVERY_DATE, stateSaying, type TemplateValues } from "../../domain/messageTemplate";
import { smsParts } from "../../domain/sms";
import type { Clock } from "../../platform/clock";
import { notFound, tooMany, unprocessable } from "../../platform/errors";
import { audit } from "../audit/audit";
import type { AgentReads } from "../agents/reads";
import { assertSameAgent, type EmployeeCaller } from "../auth/caller";
import type { CustomerReads } from "../customers/reads";
import type { TicketReads } from "../tickets/reads";
import { addressOf, type Channels, headerLine, noChannel, outRow, statusText } from "./compose";
import type { OutboxRow, StatusPreview } from "./model";
import { newRow } from "./outbox";
import type { Announce } from "./sender";
import type { Templates } from "./templates";
import { type TicketLinks, withLink } from "./links";
import { seconds, STATUS_REPEAT_MS } from "./throttle";
import { balanceDue } from "../../domain/money";

/** A ticket with its customer, shop and state, and the values its messages are written with. */
export function createTicketContexts({ tickets, customers, shops }: { tickets: TicketReads; customers: CustomerReads; shops: AgentReads }) {
  async function of(ticketId: number) {
    const ticket = await tickets.ticket(ticketId);
    if (!ticket) return null;
    const [customer, shop, state] = await Promise.all([customers.contact(ticket.customer_id), shops.shop(ticket.agent_id), tickets.state(ticket.state)]);
    if (!customer || !shop) return null;
    const values: TemplateValues = {
      customer_name: customer.full_name,
      ticket_id: String(ticket.id),
      // As people say it ("picked up"), never the state's code; "" for the nameless state.
      state: stateSaying(ticket.state, state?.is_locality_delivery),
      amount_due: euro(balanceDue(ticket.total, ticket.total_paid)),
      shop_name: shop.name,
      shop_phone: shop.landline || shop.mobile,
      delivery_date: ticket.delivery_date ? displayDate(ticket.delivery_date) : NO_DELIVERY_DATE,
    };
    return { ticket, customer, shop, state, values };
  }
  return {
    /** For the box's own sends (automatic messages): null when the ticket is gone. */
    of,
    /** The ticket, its customer and its shop, or 404 when the caller may not see the ticket. */
    async forCaller(caller: EmployeeCaller, ticketId: number) {
      const t = await tickets.ticket(ticketId);
      if (!t) throw notFound("Ticket");
      assertSameAgent(caller, t.agent_id, "Ticket");
      const ctx = await of(ticketId);
      if (!ctx) throw notFound("Ticket");
      return ctx;
    },
  };
}
export type TicketContexts = ReturnType<typeof createTicketContexts>;
export type TicketContext = NonNullable<Awaited<ReturnType<TicketContexts["of"]>>>;

/** The subject line of a ticket's message (e-mail). */
export const ticketSubject = (ctx: TicketContext) => headerLine(`${ctx.shop.name}: ticket ${ctx.ticket.id}`);

export function createStatusMessages({
  db,
  clock,
  contexts,
  templates,
  channels,
  announce,
  kick,
  links,
}: {
  db: Db;
  clock: Clock;
  contexts: TicketContexts;
  templates: Templates;
  channels: () => Promise<Channels>;
  announce: Announce;
  kick: () => void;
  links: TicketLinks;
}) {
  /** 429 when this ticket's last status message was queued less than STATUS_REPEAT_MS ago (run inside the write). */
  async function refuseRepeat(q: Pick<Db, "select">, ticketId: number) {
    const [last] = await q
      .select({ created_at: outgoingMessages.created_at })
      .from(outgoingMessages)
      .where(and(eq(outgoingMessages.ticket_id, ticketId), isNull(outgoingMessages.batch_id)))
      .orderBy(desc(outgoingMessages.id))
      .limit(1);
    if (!last) return;
    const ago = clock.now().getTime() - Date.parse(last.created_at);
    if (ago >= 0 && ago < STATUS_REPEAT_MS)
      throw tooMany(
        `A status message for ticket ${ticketId} was queued ${seconds(ago)} s ago: wait ${seconds(STATUS_REPEAT_MS - ago)} s before sending another`,
      );
  }

  /** What the ticket's status message will say and where it goes; the same refusals as sending it. */
  async function compose(caller: EmployeeCaller, ticketId: number) {
    const ctx = await contexts.forCaller(caller, ticketId);
    const ch = await channels();
    if (!ch.sms && !ch.email) throw noChannel();
    const to = addressOf(ctx.customer, ch);
    if (!to) throw unprocessable(`${ctx.customer.full_name} has no mobile or e-mail address a message can go to`);
    const text = statusText((await templates.forState(ctx.state?.id, ctx.ticket.state)).text, ctx.values);
    return { ctx, to, text };
  }

  return {
    /** GET /messages/{id}/status/preview: the exact text, its address and its SMS cost; nothing is queued. */
    async preview(caller: EmployeeCaller, ticketId: number): Promise<StatusPreview> {
      const { ctx, to, text } = await compose(caller, ticketId);
      // The link as long as the one sending mints (none is minted for a preview), so the SMS cost is the real one.
      const shown = withLink(text, links.sample());
      const { encoding, parts, length } = smsParts(shown);
      return { ticket_id: ctx.ticket.id, customer_name: ctx.customer.full_name, ...to, text: shown, sms: { encoding, parts, length } };
    },

    /** POST /messages/{id}/status: the ticket's status message to its customer, from the template of the ticket's state. */
    async send(caller: EmployeeCaller, ticketId: number): Promise<OutboxRow[]> {
      const { ctx, to, text } = await compose(caller, ticketId);
      const at = clock.now().toISOString();
      const row = await db.transaction(async (tx) => {
        // Checked in the write, so two taps at once cannot both pass.
        await refuseRepeat(tx, ctx.ticket.id);
        const link = await links.mint(tx, ctx.ticket);
        const [r] = await tx
          .insert(outgoingMessages)
          .values(
            newRow(
              {
                ...to,
                agent_id: ctx.ticket.agent_id,
                employee_id: caller.employee.id,
                customer_id: ctx.customer.id,
                ticket_id: ctx.ticket.id,
                batch_id: null,
                subject: ticketSubject(ctx),
                text: withLink(text, link),
              },
              at,
            ),
          )
          .returning();
        await audit(tx, clock.now(), caller, "message", "ticket", ctx.ticket.id, { outbox: r!.id, channel: r!.channel });
        return r!;
      });
      announce(row, "queued");
      setTimeout(kick, 0);
      return [outRow(row)];
    },
  };
}
