/**
 * A shop box's side of a cross-box deposit transfer (docs/decisions/deposit-transfers.md):
 * one phase HQ signed ("out" at the source's box, "in" at the destination's), applied at most
 * once by the unique index on (transfer_id, kind). An "out" the balance no longer covers (spent
 * while the link was down) is refused by the not-below-zero trigger; the refusal is recorded in
 * the audit trail, which reaches HQ in the box's copy, and HQ never issues the "in".
 * A refused "out" stays refused: served again after a new deposit it is not applied late.
 * The destination creates a customer it does not know by mobile from the signed record.
 * The envelope (signature, addressee) is checked by the caller: this takes an opened payload.
 */
import { z } from "zod";
import type { Db } from "../../../db/client";
import { toEuros } from "../../domain/money";
import type { Clock } from "../../platform/clock";
import { audit } from "../audit/audit";
import { transferRefused } from "../audit/reads";
import { isNotEnough, writeSide } from "./transfers";

export const DEPOSIT_TRANSFER_KIND = "deposit_transfer";

/** What HQ signs for one phase: the customer and shop as the addressed box knows them. */
export const TransferPhase = z.object({
  transfer_id: z.string().min(8).max(80),
  phase: z.enum(["out", "in"]),
  /** The shop on the addressed box whose balance moves (HQ reads it in that box's copy). */
  agent_id: z.number().int().positive(),
  /** The customer's id on the addressed box ("in": null when the box has no such customer yet). */
  customer_id: z.number().int().positive().nullable(),
  /** How the destination finds or creates the customer when it has not got their id. */
  full_name: z.string().max(120),
  mobile: z.string().max(30),
  /** Cents. */
  amount: z.number().int().positive().max(1_000_000_000),
});
export type TransferPhase = z.infer<typeof TransferPhase>;

/**
 * One phase of one transfer at a time in this process (a box is one process): two deliveries of
 * the same "in" must not both find no customer and both create one. Module-wide, not per
 * instance, so a second dispatcher cannot slip past it either.
 */
const running = new Map<string, Promise<unknown>>();
async function oneAtATime<T>(key: string, step: () => Promise<T>): Promise<T> {
  const next = (running.get(key) ?? Promise.resolve()).catch(() => {}).then(step);
  running.set(key, next);
  try {
    return await next;
  } finally {
    if (running.get(key) === next) running.delete(key);
  }
}

export type PhaseOutcome = { transfer_id: string; outcome: "applied" | "replay" | "refused"; reason?: string };

export function createTransferApply({
  db,
  clock,
  customerFor,
  createCustomer,
}: {
  db: Db;
  clock: Clock;
  /** The addressed box's customer for an "in" without an id: by mobile (null: none). */
  customerFor: (p: TransferPhase) => Promise<number | null>;
  /**
   * Creates the customer of an "in" the box does not know, from the signed name and mobile, at
   * the destination shop (through the customers service). Found by mobile at the next delivery,
   * so a replay, or a retry after a crash between this and the row, creates nobody else.
   */
  createCustomer: (p: TransferPhase) => Promise<number>;
}) {
  // The box acts for HQ: no employee of its own signs a transfer row.
  const system = { kind: "none" } as const;
  return {
    async apply(raw: unknown): Promise<PhaseOutcome> {
      const parsed = TransferPhase.safeParse(raw);
      const uid = String((raw as { transfer_id?: unknown })?.transfer_id ?? "");
      // Signed by HQ yet malformed never becomes valid: refused, and the downlink's cursor passes it.
      if (!parsed.success) return { transfer_id: uid, outcome: "refused", reason: "The transfer in the envelope is malformed: refused" };
      const p = parsed.data;
      return oneAtATime(`${p.transfer_id}:${p.phase}`, () => step(p));
    },
  };

  async function step(p: TransferPhase): Promise<PhaseOutcome> {
    let customerId = p.customer_id ?? (await customerFor(p));
    if (customerId === null) {
      // Only an "in" comes without an id; an "out" names the source's own customer.
      if (p.phase !== "in") return { transfer_id: p.transfer_id, outcome: "refused", reason: "No such customer on this box: refused" };
      customerId = await createCustomer(p);
    }
    // A refusal is final: the balance may cover it now, but HQ never issues its "in" (its copy shows no "out").
    if (p.phase === "out" && (await transferRefused(db, customerId, p.transfer_id)))
      return { transfer_id: p.transfer_id, outcome: "refused", reason: "This transfer was refused here before: it stays refused" };
    const kind = p.phase === "out" ? "transfer_out" : "transfer_in";
    try {
      const fresh = await db.transaction(async (tx) => {
        const at = clock.now();
        const wrote = await writeSide(tx, at, { transferId: p.transfer_id, kind, customerId, agentId: p.agent_id, employeeId: null, cents: p.amount });
        if (wrote) await audit(tx, at, system, kind, "customer", customerId, { transfer_id: p.transfer_id, amount_cents: p.amount, agent_id: p.agent_id });
        return wrote;
      });
      return { transfer_id: p.transfer_id, outcome: fresh ? "applied" : "replay" };
    } catch (e) {
      if (!isNotEnough(e)) throw e;
      const reason = `Not enough balance to transfer €${toEuros(p.amount).toFixed(2)}: spent meanwhile`;
      await db.transaction((tx) =>
        audit(tx, clock.now(), system, "transfer_refused", "customer", customerId, { transfer_id: p.transfer_id, amount_cents: p.amount, reason }),
      );
      return { transfer_id: p.transfer_id, outcome: "refused", reason };
    }
  }
}
export type TransferApply = ReturnType<typeof createTransferApply>;
