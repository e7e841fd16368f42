// The inbox (issue 35): texts the box could not act on by itself, and skipped pickups the shop
// must know about. Staff see their shop's (HQ every shop's; a text from a number no customer has
// belongs to no shop, so every shop on the box sees it), answer through the outbox, or mark
// an entry handled.
import { and, desc, eq, inArray, isNull, or } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { inboundMessages, outgoingMessages } from "../../../db/schema";
import type { Clock } from "../../platform/clock";
import { conflict, notFound, unprocessable } from "../../platform/errors";
import { audit } from "../audit/audit";
import { agentScope, assertSameAgent, type EmployeeCaller } from "../auth/caller";
import type { CustomerReads } from "../customers/reads";
import { type Channels, cleanBody, dialable, noChannel } from "./compose";
import type { InboxEntry, InboxQuery } from "./model";
import { newRow } from "./outbox";
import type { Announce } from "./sender";

type Entry = typeof inboundMessages.$inferSelect;

export function createInbox({
  db,
  clock,
  customers,
  channels,
  announce,
  kick,
}: {
  db: Db;
  clock: Clock;
  customers: CustomerReads;
  channels: () => Promise<Channels>;
  announce: Announce;
  kick: () => void;
}) {
  const visible = (caller: EmployeeCaller) => {
    const scope = agentScope(caller);
    return scope ? or(inArray(inboundMessages.agent_id, scope), isNull(inboundMessages.agent_id)) : undefined;
  };

  async function load(caller: EmployeeCaller, id: number): Promise<Entry> {
    const [e] = await db.select().from(inboundMessages).where(eq(inboundMessages.id, id));
    if (!e) throw notFound("Inbox message");
    if (e.agent_id !== null) assertSameAgent(caller, e.agent_id, "Inbox message");
    return e;
  }

  async function out(rows: Entry[]): Promise<InboxEntry[]> {
    const ids = [...new Set(rows.map((r) => r.customer_id).filter((x): x is number => x !== null))];
    const names = new Map((ids.length ? await customers.contacts(ids, null) : []).map((c) => [c.id, c.full_name]));
    return rows.map((r) => ({
      id: r.id,
      agent_id: r.agent_id,
      customer_id: r.customer_id,
      customer_full_name: r.customer_id === null ? null : (names.get(r.customer_id) ?? null),
      reminder_id: r.reminder_id,
      source: r.source,
      phone: r.phone,
      text: r.text,
      action: r.action,
      note: r.note,
      received_at: r.received_at,
      handled_at: r.handled_at,
      handled_by: r.handled_by,
      reply_message_id: r.reply_message_id,
    }));
  }

  async function markHandled(caller: EmployeeCaller, id: number): Promise<InboxEntry> {
    const e = await load(caller, id);
    if (e.handled_at) return (await out([e]))[0]!;
    const at = clock.now().toISOString();
    const [u] = await db
      .update(inboundMessages)
      .set({ handled_at: at, handled_by: caller.employee.id })
      .where(and(eq(inboundMessages.id, id), isNull(inboundMessages.handled_at)))
      .returning();
    return (await out([u ?? e]))[0]!;
  }

  return {
    /** GET /messaging/inbox: newest first; `open` (the default) only what no one has handled yet. */
    async list(caller: EmployeeCaller, q: InboxQuery): Promise<InboxEntry[]> {
      const rows = await db
        .select()
        .from(inboundMessages)
        .where(and(visible(caller), q.all === "true" ? undefined : isNull(inboundMessages.handled_at)))
        .orderBy(desc(inboundMessages.id))
        .limit(q.limit);
      return out(rows);
    },

    markHandled,

    /** POST /messaging/inbox/{id}/reply: an SMS back to the number it came from, through the outbox; the entry is handled. */
    async reply(caller: EmployeeCaller, id: number, text: string): Promise<InboxEntry> {
      const e = await load(caller, id);
      const to = dialable(e.phone);
      if (!to) throw unprocessable("The message came from a number an SMS cannot be sent to");
      const ch = await channels();
      if (!ch.sms) throw noChannel();
      const c = e.customer_id === null ? undefined : await customers.contact(e.customer_id);
      if (c?.no_messages) throw conflict("The customer asked for no messages: call them instead");
      const at = clock.now().toISOString();
      const row = await db.transaction(async (tx) => {
        const [r] = await tx
          .insert(outgoingMessages)
          .values(
            newRow(
              {
                channel: "sms",
                recipient: to,
                agent_id: e.agent_id ?? caller.agent.id,
                employee_id: caller.employee.id,
                customer_id: e.customer_id,
                ticket_id: null,
                batch_id: null,
                subject: "",
                text: cleanBody(text),
              },
              at,
            ),
          )
          .returning();
        const [u] = await tx
          .update(inboundMessages)
          .set({ handled_at: e.handled_at ?? at, handled_by: e.handled_by ?? caller.employee.id, reply_message_id: r!.id })
          .where(eq(inboundMessages.id, id))
          .returning();
        await audit(tx, clock.now(), caller, "reply", "inbound_message", id, { outgoing_message_id: r!.id });
        return { r: r!, u: u! };
      });
      announce(row.r, "queued");
      setTimeout(kick, 0);
      return (await out([row.u]))[0]!;
    },
  };
}
export type Inbox = ReturnType<typeof createInbox>;
