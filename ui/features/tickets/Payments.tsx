import { useState } from "react";
import { displayDateTime, euroFromEuros } from "../../../appliance/domain/format";
import { isFractionOfCent, toCents, toEuros, typedCents, WHOLE_CENTS_ONLY } from "../../../appliance/domain/money";
import type { Payment } from "../../../appliance/modules/money/model";
import { withApproval } from "../../components/approval";
import { LoadFailed } from "../../components/LoadFailed";
import { toast } from "../../components/toast";
import { useList } from "../../lib/useList";
import { listPayments, refundPayment } from "./api";

const TENDER = { cash: "Cash", card: "Card", other: "Other", account: "On account", balance: "Balance" } as const;

/**
 * A ticket's payments and refunds (issue 24), oldest first: when (DD/MM/YYYY HH:mm, Malta),
 * tender, amount, who took it, and for cash what was handed over and the change given.
 * `version` changes when the ticket was paid again, so the list follows. Each payment has a
 * Refund button: amount and reason, through a manager's PIN when the box asks for one.
 */
export function Payments({
  ticketId,
  version,
  onRefunded,
  empty,
}: {
  ticketId: number;
  version: unknown;
  onRefunded?: () => void;
  /** Said when the ticket has no payment yet (else nothing shows). */
  empty?: string;
}) {
  const [refunding, setRefunding] = useState<Payment | null>(null);
  const [reload, setReload] = useState(0);
  // `version` and `reload` are triggers (a new payment or refund): a new key loads again.
  const { items: rows, error, retry } = useList(() => listPayments(ticketId), `${ticketId}:${String(version)}:${reload}`);
  // A list that failed says so (issue 31): a vanished list reads as "nothing paid" and staff take the money again.
  const failed = error ? <LoadFailed what="the payments" error={error} onRetry={() => void retry()} /> : null;
  if (!rows?.length) return failed ?? (rows && empty ? <p className="muted">{empty}</p> : null);
  // What is left to refund of each payment: its amount less the refunds made of it.
  const refunded = new Map<number, number>();
  for (const r of rows) if (r.refund_of) refunded.set(r.refund_of, (refunded.get(r.refund_of) ?? 0) + toCents(-r.amount));
  const left = (p: Payment) => toCents(p.amount) - (refunded.get(p.id) ?? 0);
  return (
    <>
      {failed}
      <table className="payments" data-testid="payments">
        <caption>Payments</caption>
        <thead>
          <tr>
            <th>When</th>
            <th>Tender</th>
            <th>Amount</th>
            <th>Taken by</th>
            <th>Note</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={p.id} className={p.amount < 0 ? "refund" : undefined}>
              <td>{displayDateTime(p.taken_at)}</td>
              <td>{TENDER[p.tender]}</td>
              <td>{euroFromEuros(p.amount)}</td>
              <td>{p.employee ?? ""}</td>
              <td>
                {p.refund_of ? `Refund: ${p.reason ?? ""}` : ""}
                {p.tendered !== null ? `Tendered ${euroFromEuros(p.tendered)}, change ${euroFromEuros(p.change ?? 0)}` : ""}
                {p.stop ? ` ${p.stop}` : ""}
              </td>
              <td>
                {!p.refund_of && left(p) > 0 && (
                  <button type="button" className="btn btn-small" onClick={() => setRefunding(p)}>
                    Refund
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {refunding && (
        <RefundForm
          payment={refunding}
          max={left(refunding)}
          done={(ok) => {
            setRefunding(null);
            if (!ok) return;
            toast("Refunded");
            setReload((n) => n + 1);
            onRefunded?.();
          }}
        />
      )}
    </>
  );
}

/** Amount (at most what is left of the payment) and a reason; the box decides whether a manager must approve. */
function RefundForm({ payment, max, done }: { payment: Payment; max: number; done: (ok: boolean) => void }) {
  const [amount, setAmount] = useState(toEuros(max).toFixed(2));
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const cents = typedCents(amount);
  const invalid = isFractionOfCent(amount)
    ? WHOLE_CENTS_ONLY
    : !Number.isFinite(cents) || cents <= 0
      ? "Enter the amount to refund"
      : cents > max
        ? `At most ${euroFromEuros(toEuros(max))}`
        : "";

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (busy || invalid || !reason.trim()) return;
    setBusy(true);
    const r = await withApproval(refundPayment(payment.id, toEuros(cents), reason.trim()));
    setBusy(false);
    if (r) done(true);
  }

  return (
    <div className="overlay">
      <form
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="refund-title"
        onSubmit={submit}
        onKeyDown={(e) => e.key === "Escape" && done(false)}
      >
        <h2 id="refund-title">Refund</h2>
        <p>
          {TENDER[payment.tender]} payment of {euroFromEuros(payment.amount)} on {displayDateTime(payment.taken_at)}
        </p>
        <label className="field">
          <span>Amount (€)</span>
          <input inputMode="decimal" aria-label="Refund amount" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </label>
        <label className="field">
          <span>Reason</span>
          <input aria-label="Refund reason" maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
        {invalid && (
          <p className="form-error" role="alert">
            {invalid}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="button" className="btn" onClick={() => done(false)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || !!invalid || !reason.trim()}>
            Refund
          </button>
        </div>
      </form>
    </div>
  );
}
