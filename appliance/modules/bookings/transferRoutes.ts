import { z } from "zod";
import { HQ_STAFF, route } from "../../http/route";
import { conflict } from "../../platform/errors";
import { ChainTransfer, ChainTransferBody, ChainTransferQuery } from "./transferModel";
import type { TransferHq } from "./transfers";

const tag = "chain";
const notHq = () => conflict("Deposit transfers between boxes are started on head quarters' box (IRONBOX_MODE=hq)");

/**
 * Issue 34: deposit transfers across boxes, on HQ's box (docs/decisions/deposit-transfers.md).
 * A route of its own, not POST /customers/{id}/deposits/transfer: there the ids are this box's
 * customer and shops, here they are the ids in two other boxes' copies.
 */
export function chainTransferRoutes(hq: TransferHq | null) {
  return [
    route({
      method: "POST",
      path: "/chain/deposits/transfers",
      tag,
      summary:
        "HQ staff move a customer's balance from a shop of site A (from_site, from_agent; the customer by their id or mobile in A's copy) to a shop of site B: 422 when A's copy shows too little; answers the transfer in phase requested",
      access: HQ_STAFF,
      body: ChainTransferBody,
      idempotent: true,
      response: ChainTransfer,
      handler: ({ caller, body }) => {
        if (!hq) throw notHq();
        return hq.start(caller, body);
      },
    }),
    route({
      method: "GET",
      path: "/chain/deposits/transfers",
      tag,
      summary: "HQ staff: the transfers between boxes, newest first, each as the copies show it (requested, out_applied, refused, in_applied)",
      access: HQ_STAFF,
      query: ChainTransferQuery,
      response: z.array(ChainTransfer),
      handler: ({ query }) => {
        if (!hq) throw notHq();
        return hq.list(query);
      },
    }),
  ];
}
