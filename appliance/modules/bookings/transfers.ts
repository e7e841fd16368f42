/**
 * HQ's side of a cross-box deposit transfer (docs/decisions/deposit-transfers.md). The request
 * is phase "out", signed to the source's site (kept in the bookings' downlinks, served with
 * them); phase "in" is signed to the destination only once the source's restored copy shows
 * its `transfer_out` row, so the money is spendable at B only after it left A. A refused "out"
 * never shows, so no "in" is ever issued for it.
 */
import { randomUUID } from "node:crypto";
import type { Db } from "../../../db/client";
import { withReadOnly } from "../../../db/readOnly";
import { toEuros } from "../../domain/money";
import type { Clock } from "../../platform/clock";
import { unprocessable } from "../../platform/errors";
import { DEPOSIT_TRANSFER_KIND, heldAt, type TransferPhase, transferSideSeen } from "../money/reads";
import type { SigningKey } from "../reference/signing";
import { issuedEnvelopes, issueEnvelope } from "./downlink";

type Copy = { site: string; url: string };
/** One side as HQ knows it: the site, and the shop's and customer's ids on that site's box. */
export type Side = { site: string; agent_id: number };
/** Phase out carries the destination (signed with it), so HQ needs no table of its own. */
type OutPayload = TransferPhase & { to: Side };

export function createTransferHq({ db, clock, key, copies }: { db: Db; clock: Clock; key: () => SigningKey; copies: () => Copy[] }) {
  const copyOf = (site: string) => {
    const c = copies().find((x) => x.site === site);
    if (!c) throw unprocessable(`No copy of site ${site} at head quarters`);
    return c;
  };

  return {
    /** Records the request as phase "out" to the source's site, after its copy shows the balance covers it. */
    async request(input: { from: Side; to: Side; customer: { id: number; full_name: string; mobile: string }; cents: number }): Promise<string> {
      if (input.from.site === input.to.site) throw unprocessable("to: the same site as from");
      const held = await withReadOnly(copyOf(input.from.site).url, (s) => heldAt(s, input.customer.id, input.from.agent_id));
      if (input.cents > held)
        throw unprocessable(`Not enough balance at ${input.from.site} (€${toEuros(held).toFixed(2)}) to transfer €${toEuros(input.cents).toFixed(2)}`);
      copyOf(input.to.site);
      const transfer_id = randomUUID();
      const payload: OutPayload = {
        transfer_id,
        phase: "out",
        agent_id: input.from.agent_id,
        customer_id: input.customer.id,
        full_name: input.customer.full_name,
        mobile: input.customer.mobile,
        amount: input.cents,
        to: input.to,
      };
      await issueEnvelope(db, key(), {
        kind: DEPOSIT_TRANSFER_KIND,
        uid: `${transfer_id}:out`,
        site: input.from.site,
        payload,
        issued_at: clock.now().toISOString(),
      });
      return transfer_id;
    },

    /** Each pass: every "out" whose row is in the source's copy gets its "in", once (the uid). Returns how many were issued. */
    async advance(): Promise<number> {
      const issued = await issuedEnvelopes(db, DEPOSIT_TRANSFER_KIND);
      const hasIn = new Set(issued.filter((e) => e.uid.endsWith(":in")).map((e) => e.uid));
      let n = 0;
      for (const e of issued) {
        const p = e.payload as OutPayload;
        if (p.phase !== "out" || hasIn.has(`${p.transfer_id}:in`)) continue;
        const copy = copies().find((c) => c.site === e.site);
        if (!copy) continue;
        const seen = await withReadOnly(copy.url, (s) => transferSideSeen(s, p.transfer_id, "transfer_out")).catch(() => false);
        if (!seen) continue;
        const inPayload: TransferPhase = { ...p, phase: "in", agent_id: p.to.agent_id, customer_id: null };
        delete (inPayload as Partial<OutPayload>).to;
        await issueEnvelope(db, key(), {
          kind: DEPOSIT_TRANSFER_KIND,
          uid: `${p.transfer_id}:in`,
          site: p.to.site,
          payload: inPayload,
          issued_at: clock.now().toISOString(),
        });
        n++;
      }
      return n;
    },
  };
}
