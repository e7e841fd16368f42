import { useCallback, useEffect, useState } from "react";
import { displayDateTime, euroFromEuros } from "../../../appliance/domain/format";
import { isFractionOfCent, toEuros, typedCents, WHOLE_CENTS_ONLY } from "../../../appliance/domain/money";
import type { DepositBalance } from "../../../appliance/modules/money/model";
import { Section } from "../../components/form";
import { toast } from "../../components/toast";
import { api, loadFailure } from "../../lib/api";
import { DepositTransfer } from "./DepositTransfer";

const KIND: Record<string, string> = {
  deposit: "Deposit",
  refund: "Deposit given back",
  spend: "Spent on a ticket",
  transfer_out: "Transferred out",
  transfer_in: "Transferred in",
};

/**
 * A customer's deposit (issue 34): the balance the chain owes them, what this shop can spend,
 * the ledger's last rows, and a deposit taken into this shop's drawer. A failed load says so
 * with Retry; it is never shown as a zero balance.
 */
export function CustomerDeposits({ customer, mobile = "" }: { customer: number; mobile?: string }) {
  const [b, setB] = useState<DepositBalance | null>(null);
  const [failed, setFailed] = useState("");
  const [amount, setAmount] = useState("");
  const [method, setMethod] = useState<"cash" | "card" | "other">("cash");
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => {
    setFailed("");
    api<DepositBalance>("GET", `/customers/${customer}/balance`, { quiet: true }).then(setB, (e) => setFailed(loadFailure(e)));
  }, [customer]);
  useEffect(load, [load]);

  const cents = typedCents(amount);
  const invalid = isFractionOfCent(amount) ? WHOLE_CENTS_ONLY : !Number.isFinite(cents) || cents <= 0 ? "Enter the amount left ahead" : "";

  async function take(e: React.FormEvent) {
    e.preventDefault();
    if (busy || invalid) return;
    setBusy(true);
    try {
      await api("POST", `/customers/${customer}/deposits`, { body: { amount: toEuros(cents), method } });
      toast(`Deposit of ${euroFromEuros(toEuros(cents))} taken`);
      setAmount("");
      load();
    } catch {
      // api() showed the box's message.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title="Deposit">
      {failed ? (
        <p className="form-error" role="alert" data-testid="deposit-failed">
          Could not load the deposit balance: {failed}{" "}
          <button type="button" className="btn btn-small" onClick={load}>
            Retry
          </button>
        </p>
      ) : !b ? (
        <p className="muted">Loading the deposit balance…</p>
      ) : (
        <>
          <p data-testid="deposit-balance">
            Balance <strong>{euroFromEuros(b.balance)}</strong>
            {b.spendable !== b.balance && <> · spendable at this shop {euroFromEuros(b.spendable)}</>}
          </p>
          {b.rows.length > 0 && (
            <table className="table small" data-testid="deposit-rows">
              <tbody>
                {b.rows.slice(0, 10).map((r) => (
                  <tr key={r.id}>
                    <td>{displayDateTime(r.taken_at)}</td>
                    <td>{KIND[r.kind] ?? r.kind}</td>
                    <td>{r.tender === "balance" ? "" : r.tender}</td>
                    <td className="num">{euroFromEuros(r.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      <form className="people-grid" onSubmit={take} aria-label="Take a deposit">
        <label className="field">
          <span>Amount (€)</span>
          <input inputMode="decimal" aria-label="Deposit amount" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </label>
        <label className="field">
          <span>Paid by</span>
          <select aria-label="Deposit tender" value={method} onChange={(e) => setMethod(e.target.value as typeof method)}>
            <option value="cash">Cash</option>
            <option value="card">Card</option>
            <option value="other">Other</option>
          </select>
        </label>
        <div>
          {invalid && amount.trim() !== "" && <p className="form-error">{invalid}</p>}
          <button type="submit" className="btn btn-primary" disabled={busy || !!invalid}>
            Take deposit
          </button>
        </div>
      </form>
      <DepositTransfer customer={customer} mobile={mobile} onDone={load} />
    </Section>
  );
}
