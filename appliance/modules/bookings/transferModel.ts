// Cross-box deposit transfers started at head quarters (issue 34, docs/decisions/deposit-transfers.md).
// Euros on the wire, cents inside; ids are the source's or the destination's own (each box numbers its rows).
import { z } from "zod";
import { euros } from "../../domain/schemas";
import { SiteName } from "../chain/model";

const id = z.number().int().positive();

/** POST /chain/deposits/transfers: the customer as site A knows them (its id there, or a mobile), from a shop of A to a shop of B. */
export const ChainTransferBody = z
  .object({
    from_site: SiteName,
    from_agent: id,
    to_site: SiteName,
    to_agent: id,
    /** The customer's id in the source site's copy; or `mobile`, looked up there. */
    customer_id: id.optional(),
    mobile: z.string().trim().min(6).max(30).optional(),
    amount: euros.refine((n) => n > 0, "must be more than 0"),
  })
  .refine((b) => (b.customer_id === undefined) !== (b.mobile === undefined), { message: "give customer_id or mobile (one of them)", path: ["customer_id"] });
export type ChainTransferBody = z.infer<typeof ChainTransferBody>;

/**
 * Where a transfer is, as the copies show it: requested (phase out signed, not yet in the
 * source's copy), out_applied (the source's copy has the transfer_out row; phase in signed),
 * refused (the source recorded a refusal: the balance was spent meanwhile; nothing moved),
 * in_applied (the destination's copy has the transfer_in row: spendable there).
 */
export const TRANSFER_PHASES = ["requested", "out_applied", "refused", "in_applied"] as const;
export type ChainTransferPhase = (typeof TRANSFER_PHASES)[number];

export const ChainTransfer = z.object({
  transfer_id: z.string(),
  phase: z.enum(TRANSFER_PHASES),
  from_site: z.string(),
  from_agent: z.number(),
  to_site: z.string(),
  to_agent: z.number(),
  /** The customer's id in the source site's copy. */
  customer_id: z.number(),
  full_name: z.string(),
  mobile: z.string(),
  amount: z.number(),
  /** When HQ signed phase out (UTC). */
  requested_at: z.string(),
});
export type ChainTransfer = z.infer<typeof ChainTransfer>;

export const ChainTransferQuery = z.object({
  transfer_id: z.string().max(80).optional(),
  /** Only this customer's transfers (their id in the source site's copy, with from_site). */
  customer_id: z.coerce.number().int().positive().optional(),
  from_site: SiteName.optional(),
});
