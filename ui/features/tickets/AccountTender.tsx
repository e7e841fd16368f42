import { useCallback, useEffect, useState } from "react";
import { euroFromEuros } from "../../../appliance/domain/format";
import { toCents, toEuros } from "../../../appliance/domain/money";
import type { Account } from "../../../appliance/modules/accounts/model";
import { fetchList, loadFailure } from "../../lib/api";

/**
 * The On account tender's facts (issue 34), before paying: which account the customer charges
 * to, its balance and credit limit, and the room left. A charge past the limit needs a
 * manager's approval (the box asks; the approval dialog follows Pay). A failed load says so.
 */
export function AccountTender({ customer, amount }: { customer: number | undefined; amount: number }) {
  const [account, setAccount] = useState<Account | null | undefined>(undefined);
  const [failed, setFailed] = useState("");
  const load = useCallback(() => {
    if (customer === undefined) return setAccount(null);
    setFailed("");
    setAccount(undefined);
    fetchList<Account>("/accounts/").then(
      (all) => setAccount(all.find((a) => a.customer_ids.includes(customer)) ?? null),
      (e) => setFailed(loadFailure(e)),
    );
  }, [customer]);
  useEffect(load, [load]);

  if (failed)
    return (
      <p className="pay-deposit" role="alert" data-testid="pay-account">
        Could not load the customer's account: {failed}{" "}
        <button type="button" className="btn btn-small" onClick={load}>
          Retry
        </button>
      </p>
    );
  if (account === undefined)
    return (
      <p className="pay-deposit" role="status" data-testid="pay-account">
        Loading the customer's account…
      </p>
    );
  if (account === null)
    return (
      <p className="pay-deposit form-error" role="status" data-testid="pay-account">
        This customer charges to no account.
      </p>
    );
  // In cents: the room left and whether this charge fits are exact.
  const room = toCents(account.credit_limit) - toCents(account.balance);
  const over = Number.isFinite(amount) && toCents(amount) > room;
  return (
    <div className="pay-deposit" role="status" data-testid="pay-account">
      <p>
        <strong>{account.name}</strong>: balance {euroFromEuros(account.balance)}, credit limit {euroFromEuros(account.credit_limit)}, room left{" "}
        <span data-testid="pay-account-room">{euroFromEuros(toEuros(Math.max(room, 0)))}</span>
      </p>
      {over && <p className="form-error">Over the credit limit: a manager's approval is needed.</p>}
    </div>
  );
}
