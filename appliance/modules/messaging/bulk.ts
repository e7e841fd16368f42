// Bulk sends (POST /customers/sendMessages): one row per customer reached, written with the
// batch in one transaction; those who asked for no messages and those without an address are
// counted, not queued. The count comes first, without sending (issue 25: "Are you sure?" says
// how many get it and how many are skipped).
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { messageBatches, outgoingMessages } from "../../../db/schema";
import type { Clock } from "../../platform/clock";
import { unprocessable } from "../../platform/errors";
import { audit } from "../audit/audit";
import { agentScope, type EmployeeCaller } from "../auth/caller";
import type { CustomerReads } from "../customers/reads";
import { addressOf, type Channels, cleanBody, headerLine, noChannel, type Recipient } from "./compose";
import type { BulkCount, SendResult } from "./model";

/** Outbox rows a bulk send writes per statement. */
const INSERT_CHUNK = 2500;

export function createBulkSends({
  db,
  clock,
  customers,
  channels,
  kick,
}: {
  db: Db;
  clock: Clock;
  customers: CustomerReads;
  channels: () => Promise<Channels>;
  kick: () => void;
}) {
  /** Who a send reaches and who it skips. Chosen ids are each checked against the caller's shop: one unknown id and nothing is queued. */
  async function audience(caller: EmployeeCaller, all: boolean, ids: number[]) {
    const scope = agentScope(caller);
    let list: Awaited<ReturnType<CustomerReads["contacts"]>>;
    if (all) {
      list = await customers.contacts(null, scope);
    } else {
      const unique = [...new Set(ids)];
      if (!unique.length) throw unprocessable("customer_ids: choose at least one customer, or All Customers");
      list = await customers.contacts(unique, scope);
      if (list.length !== unique.length) {
        const found = new Set(list.map((c) => c.id));
        const missing = unique.filter((id) => !found.has(id));
        throw unprocessable(`customer_ids: no customer ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ` and ${missing.length - 10} more` : ""}`);
      }
    }
    const ch = await channels();
    if (!ch.sms && !ch.email) throw noChannel();
    const skipped = { no_messages: 0, no_address: 0 };
    const reached: (Recipient & { customer_id: number; agent_id: number })[] = [];
    for (const c of list) {
      if (c.no_messages) skipped.no_messages++;
      else {
        const to = addressOf(c, ch);
        if (to) reached.push({ ...to, customer_id: c.id, agent_id: c.agent_id });
        else skipped.no_address++;
      }
    }
    return { list, reached, skipped };
  }

  return {
    /** POST /customers/sendMessages/count: what a send to these customers would do, queuing nothing. */
    async count(caller: EmployeeCaller, all: boolean, ids: number[]): Promise<BulkCount> {
      const { list, reached, skipped } = await audience(caller, all, ids);
      return { customers: list.length, will_send: reached.length, skipped };
    },

    async send(caller: EmployeeCaller, all: boolean, ids: number[], rawText: string): Promise<SendResult> {
      const text = cleanBody(rawText).trim();
      if (!text) throw unprocessable("text: write the message");
      const { list, reached, skipped } = await audience(caller, all, ids);
      const subject = headerLine(`Message from ${caller.agent.name}`);
      const at = clock.now().toISOString();
      const batchId = await db.transaction(async (tx) => {
        const [batch] = await tx
          .insert(messageBatches)
          .values({
            agent_id: caller.agent.id,
            employee_id: caller.employee.id,
            text,
            all_customers: all,
            queued: reached.length,
            skipped_no_messages: skipped.no_messages,
            skipped_no_address: skipped.no_address,
            created_at: at,
          })
          .returning({ id: messageBatches.id });
        // The rows differ only in key, shop, customer and address: each chunk is one statement
        // reading them from one JSON value, so 10,000 rows hold the write lock for a blink
        // (bound values per row would take most of a second). Reads go on between chunks.
        for (let i = 0; i < reached.length; i += INSERT_CHUNK) {
          if (i) await new Promise((r) => setImmediate(r));
          const chunk = JSON.stringify(reached.slice(i, i + INSERT_CHUNK).map((r) => [crypto.randomUUID(), r.agent_id, r.customer_id, r.channel, r.recipient]));
          await tx.run(sql`INSERT INTO ${outgoingMessages} (key, batch_id, agent_id, employee_id, customer_id, channel, recipient, subject, text, status, attempts, next_attempt_at, created_at, updated_at)
            SELECT value ->> 0, ${batch!.id}, value ->> 1, ${caller.employee.id}, value ->> 2, value ->> 3, value ->> 4, ${subject}, ${text}, 'queued', 0, ${at}, ${at}, ${at}
            FROM json_each(${chunk})`);
        }
        await audit(tx, clock.now(), caller, "send", "message_batch", batch!.id, { all, customers: list.length, queued: reached.length, skipped });
        return batch!.id;
      });
      setTimeout(kick, 0);
      return { batch_id: batchId, queued: reached.length, skipped };
    },
  };
}
