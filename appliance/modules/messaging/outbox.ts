// The outbox as the screens see it: a shop's rows listed, a bulk send's progress counted, a
// failed row sent again, and the row every kind of send writes.
import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { messageBatches, outgoingMessages } from "../../../db/schema";
import type { Clock } from "../../platform/clock";
import { conflict, notFound } from "../../platform/errors";
import { audit } from "../audit/audit";
import { agentScope, assertSameAgent, type EmployeeCaller } from "../auth/caller";
import type { CustomerReads } from "../customers/reads";
import type { TicketReads } from "../tickets/reads";
import { outRow, type Recipient } from "./compose";
import type { BatchCounts, MessageListQuery, OutboxRow } from "./model";
import type { Announce } from "./sender";

export type NewRow = {
  agent_id: number;
  customer_id: number | null;
  ticket_id: number | null;
  batch_id: number | null;
  /** Who asked (null: the box itself, for an automatic message). */
  employee_id: number | null;
  subject: string;
  text: string;
} & Recipient;

/** A queued row's values: a fresh idempotency key, due at `dueAt` (now, or the end of quiet hours). */
export function newRow(r: NewRow, at: string, dueAt = at) {
  return { ...r, key: crypto.randomUUID(), status: "queued" as const, attempts: 0, next_attempt_at: dueAt, created_at: at, updated_at: at };
}

export function createOutbox({
  db,
  clock,
  tickets,
  customers,
  announce,
  kick,
}: {
  db: Db;
  clock: Clock;
  tickets: TicketReads;
  customers: CustomerReads;
  announce: Announce;
  kick: () => void;
}) {
  async function load(caller: EmployeeCaller, id: number) {
    const r = await db.query.outgoingMessages.findFirst({ where: eq(outgoingMessages.id, id) });
    if (!r) throw notFound("Message");
    assertSameAgent(caller, r.agent_id, "Message");
    return r;
  }

  async function batchOf(caller: EmployeeCaller, id: number) {
    const b = await db.query.messageBatches.findFirst({ where: eq(messageBatches.id, id) });
    if (!b) throw notFound("Message batch");
    assertSameAgent(caller, b.agent_id, "Message batch");
    return b;
  }

  return {
    /** GET /messages: newest first, the caller's shop's rows; each id filter must be one the caller may see. */
    async list(caller: EmployeeCaller, q: MessageListQuery): Promise<OutboxRow[]> {
      if (q.customer_id) {
        const c = await customers.contact(q.customer_id);
        if (!c) throw notFound("Customer");
        assertSameAgent(caller, c.agent_id, "Customer");
      }
      if (q.ticket_id) {
        const t = await tickets.ticket(q.ticket_id);
        if (!t) throw notFound("Ticket");
        assertSameAgent(caller, t.agent_id, "Ticket");
      }
      if (q.batch_id) await batchOf(caller, q.batch_id);
      const scope = agentScope(caller);
      const rows = await db
        .select()
        .from(outgoingMessages)
        .where(
          and(
            scope ? inArray(outgoingMessages.agent_id, scope) : undefined,
            q.customer_id ? eq(outgoingMessages.customer_id, q.customer_id) : undefined,
            q.ticket_id ? eq(outgoingMessages.ticket_id, q.ticket_id) : undefined,
            q.batch_id ? eq(outgoingMessages.batch_id, q.batch_id) : undefined,
          ),
        )
        .orderBy(desc(outgoingMessages.id))
        .limit(q.limit);
      return rows.map(outRow);
    },

    /** GET /messages/batches/{id}: the batch's rows counted per state. */
    async batchCounts(caller: EmployeeCaller, id: number): Promise<BatchCounts> {
      await batchOf(caller, id);
      const rows = await db
        .select({ status: outgoingMessages.status, n: count() })
        .from(outgoingMessages)
        .where(eq(outgoingMessages.batch_id, id))
        .groupBy(outgoingMessages.status);
      const out: BatchCounts = { queued: 0, sending: 0, sent: 0, failed: 0, unknown: 0, total: 0 };
      for (const r of rows) {
        out[r.status] = r.n;
        out.total += r.n;
      }
      return out;
    },

    /** POST /messages/outbox/{id}/retry: a failed or unknown row goes back to the queue (a person decided). */
    async retry(caller: EmployeeCaller, id: number): Promise<OutboxRow> {
      const r = await load(caller, id);
      if (r.status !== "failed" && r.status !== "unknown") throw conflict("Only a failed message, or one whose fate is unknown, can be sent again");
      const at = clock.now().toISOString();
      const row = await db.transaction(async (tx) => {
        const [u] = await tx
          .update(outgoingMessages)
          .set({ status: "queued", attempts: 0, next_attempt_at: at, updated_at: at })
          .where(and(eq(outgoingMessages.id, id), eq(outgoingMessages.status, r.status)))
          .returning();
        if (!u) throw conflict("The message changed meanwhile; look again");
        await audit(tx, clock.now(), caller, "retry", "outgoing_message", id, { from: r.status, last_error: r.last_error });
        return u;
      });
      announce(row, "queued");
      setTimeout(kick, 0);
      return outRow(row);
    },
  };
}
