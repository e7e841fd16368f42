import { useState } from "react";
import { euroFromEuros } from "../../../appliance/domain/format";
import { isFractionOfCent, toEuros, typedCents, WHOLE_CENTS_ONLY } from "../../../appliance/domain/money";
import type { CreditNote } from "../../../appliance/modules/accounts/model";
import { toast } from "../../components/toast";
import { api } from "../../lib/api";

/** A credit note on an invoice: an amount (at most what it still asks) and the reason. */
export function CreditForm({ invoice, onDone }: { invoice: { id: number; open: number }; onDone: () => void }) {
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const cents = typedCents(amount);
  const invalid = isFractionOfCent(amount)
    ? WHOLE_CENTS_ONLY
    : !Number.isFinite(cents) || cents <= 0
      ? "Enter the amount to credit"
      : toEuros(cents) > invoice.open
        ? `At most ${euroFromEuros(invoice.open)}`
        : !reason.trim()
          ? "Say why"
          : "";
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (busy || invalid) return;
    setBusy(true);
    try {
      const c = await api<CreditNote>("POST", `/invoices/${invoice.id}/credit`, { body: { amount: toEuros(cents), reason: reason.trim() } });
      toast(`Credit note ${c.number} of ${euroFromEuros(c.amount)}`);
      onDone();
    } catch {
      // api() showed the box's message; nothing was credited.
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="people-grid" onSubmit={submit} aria-label="Credit note">
      <label className="field">
        <span>Amount (€)</span>
        <input aria-label="Credit amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
      </label>
      <label className="field">
        <span>Reason</span>
        <input aria-label="Credit reason" value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      <div>
        {invalid && amount.trim() !== "" && <p className="form-error">{invalid}</p>}
        <button type="submit" className="btn btn-primary" disabled={busy || !!invalid}>
          Issue credit note
        </button>
      </div>
    </form>
  );
}
