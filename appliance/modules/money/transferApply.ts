/**
 * A shop box's side of a cross-box deposit transfer (docs/decisions/deposit-transfers.md):
 * one phase HQ signed ("out" at the source's box, "in" at the destination's), applied at most
 * once by the unique index on (transfer_id, kind). An "out" the balance no longer covers (spent
 * while the link was down) is refused by the not-below-zero trigger; the refusal is recorded in
 * the audit trail, which reaches HQ in the box's copy, and HQ never issues the "in".
 * The envelope (signature, addressee) is checked by the caller: this takes an opened payload.
 */
import { z } from "zod";
import type { Db } from "../../../db/client";
import { toEuros } from "../../domain/money";
import type { Clock } from "../../platform/clock";
import { audit } from "../audit/audit";
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

export type PhaseOutcome = { transfer_id: string; outcome: "applied" | "replay" | "refused"; reason?: string };

export function createTransferApply({
  db,
  clock,
  customerFor,
}: {
  db: Db;
  clock: Clock;
  /** The addressed box's customer for an "in" without an id: by mobile (null: none; creating one is not built yet). */
  customerFor: (p: TransferPhase) => Promise<number | null>;
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
      const customerId = p.customer_id ?? (await customerFor(p));
      if (customerId === null) return { transfer_id: p.transfer_id, outcome: "refused", reason: "No customer with this mobile on this box: refused" };
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
    },
  };
}
export type TransferApply = ReturnType<typeof createTransferApply>;
