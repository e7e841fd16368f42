/**
 * Deposit transfers (issue 34, docs/decisions/deposit-transfers.md): HQ staff move a customer's
 * balance from one shop to another. On a box that holds both shops (one database) it is one
 * transaction writing the `transfer_out` row at the source and the `transfer_in` row at the
 * destination under one random `transfer_id`; the unique index on (transfer_id, kind) makes
 * each side at most once, and the not-below-zero trigger refuses an out the balance no longer
 * covers, so the balance is never spendable twice.
 */
import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { deposits } from "../../../db/schema";
import { toCents, toEuros } from "../../domain/money";
import type { Clock } from "../../platform/clock";
import { notFound, unprocessable } from "../../platform/errors";
import { agentReads } from "../agents/reads";
import { audit } from "../audit/audit";
import type { EmployeeCaller } from "../auth/caller";
import { customerReads } from "../customers/reads";
import type { TransferBody } from "./depositModel";
import { type Exec, tillDayFor } from "./repo";

/** A transfer row's tender: no drawer is involved (the drawer reports count deposits, refunds and spends only). */
export const TRANSFER_TENDER = "transfer";

const euro = (cents: number) => `€${toEuros(cents).toFixed(2)}`;

/** The customer's balance at one shop (cents). */
export async function heldAt(q: Pick<Exec, "select">, customerId: number, agentId: number): Promise<number> {
  const [r] = await q
    .select({ c: sql<number>`coalesce(sum(${deposits.amount}), 0)` })
    .from(deposits)
    .where(sql`${deposits.customer_id} = ${customerId} AND ${deposits.agent_id} = ${agentId}`);
  return Number(r?.c ?? 0);
}

/** Whether a copy shows a transfer's side (HQ learns from the source's copy that phase out is in). */
export async function transferSideSeen(q: Pick<Exec, "select">, transferId: string, kind: "transfer_out" | "transfer_in"): Promise<boolean> {
  const [r] = await q.select({ id: deposits.id }).from(deposits).where(sql`${deposits.transfer_id} = ${transferId} AND ${deposits.kind} = ${kind}`);
  return r !== undefined;
}

/** One side of a transfer, once: false when this side of `transferId` is already in (a replay). */
export async function writeSide(
  q: Exec,
  at: Date,
  side: { transferId: string; kind: "transfer_out" | "transfer_in"; customerId: number; agentId: number; employeeId: number | null; cents: number },
): Promise<boolean> {
  // Looked up first: the not-below-zero trigger runs before the unique index is consulted, so a
  // replayed "out" that emptied the balance would otherwise be refused instead of seen as done.
  if (await transferSideSeen(q, side.transferId, side.kind)) return false;
  const rows = await q
    .insert(deposits)
    .values({
      customer_id: side.customerId,
      agent_id: side.agentId,
      employee_id: side.employeeId,
      kind: side.kind,
      amount: side.kind === "transfer_out" ? -side.cents : side.cents,
      tender: TRANSFER_TENDER,
      transfer_id: side.transferId,
      reason: "transfer",
      taken_at: at.toISOString(),
      till_day: await tillDayFor(q, side.agentId, at),
    })
    .onConflictDoNothing()
    .returning({ id: deposits.id });
  return rows.length > 0;
}

/** The database's own refusal of a row that would take a balance below zero (migration 0018). */
export const isNotEnough = (e: unknown) =>
  /Not enough balance/.test(String((e as Error)?.message ?? e) + String((e as { cause?: Error })?.cause?.message ?? ""));

export function createTransferService({ db, clock }: { db: Db; clock: Clock }) {
  const customers = customerReads(db);
  const agents = agentReads(db);

  return {
    /** Both sides on this box, in one transaction (HQ staff: the route's access). */
    async transfer(caller: EmployeeCaller, customerId: number, input: TransferBody) {
      if (!(await customers.contact(customerId))) throw notFound("Customer");
      const from = await agents.shop(input.from_agent);
      if (!from) throw notFound("from_agent: Shop");
      const to = await agents.shop(input.to_agent);
      if (!to) throw notFound("to_agent: Shop");
      if (from.id === to.id) throw unprocessable("to_agent: the same shop as from_agent");
      const cents = toCents(input.amount);
      const transferId = randomUUID();
      const refused = () => unprocessable(`Not enough balance at ${from.name} (${euro(held)}) to transfer ${euro(cents)}`);
      let held = 0;
      try {
        await db.transaction(async (tx) => {
          held = await heldAt(tx, customerId, from.id);
          if (cents > held) throw refused();
          const at = clock.now();
          const base = { transferId, customerId, employeeId: caller.employee.id, cents };
          await writeSide(tx, at, { ...base, kind: "transfer_out", agentId: from.id });
          await writeSide(tx, at, { ...base, kind: "transfer_in", agentId: to.id });
          await audit(tx, at, caller, "transfer", "customer", customerId, {
            transfer_id: transferId,
            amount_cents: cents,
            from_agent: from.id,
            to_agent: to.id,
          });
        });
      } catch (e) {
        // Another spend between the check and the insert: the trigger refused; nothing was written.
        if (isNotEnough(e)) throw refused();
        throw e;
      }
      return {
        transfer_id: transferId,
        customer_id: customerId,
        from_agent: from.id,
        to_agent: to.id,
        amount: toEuros(cents),
        status: "applied" as const,
        from_balance: toEuros(await heldAt(db, customerId, from.id)),
        to_balance: toEuros(await heldAt(db, customerId, to.id)),
      };
    },
  };
}
export type TransferService = ReturnType<typeof createTransferService>;
