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
import { toCents, toEuros } from "../../domain/money";
import type { Clock } from "../../platform/clock";
import { notFound, unprocessable } from "../../platform/errors";
import { agentReads } from "../agents/reads";
import { audit } from "../audit/audit";
import { transferRefused } from "../audit/reads";
import type { EmployeeCaller } from "../auth/caller";
import { customerReads } from "../customers/reads";
import { DEPOSIT_TRANSFER_KIND, heldAt, type TransferPhase, transferSideSeen } from "../money/reads";
import type { SigningKey } from "../reference/signing";
import { phoneSpellings } from "../public/otp";
import { issuedEnvelopes, issueEnvelope } from "./downlink";
import type { ChainTransfer, ChainTransferBody, ChainTransferPhase } from "./transferModel";

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

    /**
     * POST /chain/deposits/transfers: the customer and both shops looked up in the copies (an
     * id HQ has not seen in that site's copy is refused), then `request`; audited on HQ's box.
     */
    async start(caller: EmployeeCaller, b: ChainTransferBody): Promise<ChainTransfer> {
      if (b.from_site === b.to_site) throw unprocessable("to_site: the same site as from_site (a box moves its own shops' balances itself)");
      const from = copyOf(b.from_site);
      const to = copyOf(b.to_site);
      const customer = await withReadOnly(from.url, async (s) => {
        if (!(await agentReads(s).shop(b.from_agent))) throw notFound(`from_agent: Shop of ${b.from_site}`);
        if (b.customer_id !== undefined) return customerReads(s).contact(b.customer_id);
        const spellings = phoneSpellings(b.mobile ?? "")?.spellings ?? [];
        return (await customerReads(s).byMobiles(spellings))[0];
      });
      if (!customer) throw notFound(`Customer at ${b.from_site}`);
      if (!(await withReadOnly(to.url, (s) => agentReads(s).shop(b.to_agent)))) throw notFound(`to_agent: Shop of ${b.to_site}`);
      const cents = toCents(b.amount);
      const transfer_id = await this.request({
        from: { site: b.from_site, agent_id: b.from_agent },
        to: { site: b.to_site, agent_id: b.to_agent },
        customer: { id: customer.id, full_name: customer.full_name, mobile: customer.mobile },
        cents,
      });
      await audit(db, clock.now(), caller, "transfer_request", "deposit_transfer", null, {
        transfer_id,
        amount_cents: cents,
        from: `${b.from_site}/${b.from_agent}/${customer.id}`,
        to: `${b.to_site}/${b.to_agent}`,
      });
      return (await this.list({ transfer_id }))[0]!;
    },

    /** Every transfer HQ signed, newest first, each in the phase the copies show (a copy HQ cannot read: as last known, requested). */
    async list(only: { transfer_id?: string; customer_id?: number; from_site?: string } = {}): Promise<ChainTransfer[]> {
      const issued = await issuedEnvelopes(db, DEPOSIT_TRANSFER_KIND);
      const outs = issued
        .filter((e) => (e.payload as OutPayload).phase === "out")
        .map((e) => ({ e, p: e.payload as OutPayload }))
        .filter(({ e, p }) => (!only.transfer_id || p.transfer_id === only.transfer_id) && (!only.from_site || e.site === only.from_site))
        .filter(({ p }) => only.customer_id === undefined || p.customer_id === only.customer_id)
        .reverse();
      const seen = (site: string, read: (s: Db) => Promise<boolean>) => {
        const c = copies().find((x) => x.site === site);
        return c ? withReadOnly(c.url, read).catch(() => false) : Promise.resolve(false);
      };
      const out: ChainTransfer[] = [];
      for (const { e, p } of outs) {
        let phase: ChainTransferPhase = "requested";
        if (await seen(p.to.site, (s) => transferSideSeen(s, p.transfer_id, "transfer_in"))) phase = "in_applied";
        else if (await seen(e.site, (s) => transferSideSeen(s, p.transfer_id, "transfer_out"))) phase = "out_applied";
        else if (await seen(e.site, (s) => transferRefused(s, p.customer_id ?? 0, p.transfer_id))) phase = "refused";
        out.push({
          transfer_id: p.transfer_id,
          phase,
          from_site: e.site,
          from_agent: p.agent_id,
          to_site: p.to.site,
          to_agent: p.to.agent_id,
          customer_id: p.customer_id ?? 0,
          full_name: p.full_name,
          mobile: p.mobile,
          amount: toEuros(p.amount),
          requested_at: e.issued_at,
        });
      }
      return out;
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
export type TransferHq = ReturnType<typeof createTransferHq>;
