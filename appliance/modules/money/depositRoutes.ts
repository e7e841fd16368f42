import { IdParams } from "../../domain/schemas";
import { HQ_STAFF, ROLES, route } from "../../http/route";
import { DepositBalance, DepositBody, DepositResult, TransferBody, TransferResult } from "./depositModel";
import type { DepositService } from "./deposits";
import { RefundBody } from "./model";
import type { TransferService } from "./transfers";

const staff = { roles: ROLES };

/** Deposits (issue 34): money a customer leaves ahead, spent with ?method=balance on the pay routes. */
export function depositRoutes(deposits: DepositService, transfers: TransferService) {
  return [
    route({
      method: "POST",
      path: "/customers/:id/deposits",
      response: DepositResult,
      tag: "payments",
      summary:
        "Takes a deposit (money the customer leaves ahead) into the caller's drawer by method=cash|card|other; answers the row and the balance at this shop",
      access: staff,
      params: IdParams,
      body: DepositBody,
      idempotent: true,
      handler: ({ caller, params, body }) => deposits.deposit(caller, params.id, body),
    }),
    route({
      method: "POST",
      path: "/customers/:id/deposits/transfer",
      response: TransferResult,
      tag: "payments",
      summary:
        "HQ staff move part of a customer's balance from one shop (from_agent) to another (to_agent), each side once under one transfer_id; refused 422 when the source shop's balance does not cover it",
      access: HQ_STAFF,
      params: IdParams,
      body: TransferBody,
      idempotent: true,
      handler: ({ caller, params, body }) => transfers.transfer(caller, params.id, body),
    }),
    route({
      method: "GET",
      path: "/customers/:id/balance",
      response: DepositBalance,
      tag: "payments",
      summary: "A customer's deposit balance: in all, spendable at the caller's shop, per shop, and the ledger's rows",
      access: staff,
      params: IdParams,
      handler: ({ caller, params }) => deposits.balance(caller, params.id),
    }),
    route({
      method: "POST",
      path: "/deposits/:id/refund",
      response: DepositResult,
      tag: "payments",
      summary: "Gives back part or all of a deposit with a reason, by the tender it came in by; employees and drivers need a manager's approval",
      access: staff,
      params: IdParams,
      body: RefundBody,
      idempotent: true,
      handler: ({ caller, params, body, client }) => deposits.refund(caller, params.id, body, { pin: body.approval?.pin, client }),
    }),
  ];
}
