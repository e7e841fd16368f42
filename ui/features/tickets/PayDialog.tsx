import { useEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { euroFromEuros } from "../../../appliance/domain/format";
import { changeDue, isFractionOfCent, toCents, toEuros, typedCents, WHOLE_CENTS_ONLY } from "../../../appliance/domain/money";
import type { DepositBalance, PayMethod } from "../../../appliance/modules/money/model";
import { api } from "../../lib/api";
import type { Item, Ticket } from "../../../appliance/modules/tickets/model";
import { type Approval, withApproval } from "../../components/approval";
import { toast } from "../../components/toast";
import { AccountTender } from "./AccountTender";
import { payItemBy, payTicketBy } from "./api";

const TENDERS: { value: PayMethod; label: string }[] = [
  { value: "cash", label: "Cash" },
  { value: "card", label: "Card" },
  { value: "other", label: "Other" },
  // Charged to the business account of the ticket's customer (issue 34): billed later.
  { value: "account", label: "On account" },
];

/** "12,50" or "12.50" typed on a tablet, in cents; NaN when it is no amount or a fraction of a cent. */
const cents = typedCents;

/** One tender: amount (euros), method, and for cash what was handed over. */
type Take = { method: PayMethod; amount: number; tendered?: number; approval?: Approval };

/**
 * The pay dialog of the counter, the ticket view and the item editor (issue 24): the balance,
 * the tender, the amount (the balance by default; less is a split and the dialog stays open for
 * the rest) and, for cash, what was handed over with the change due shown large. Each tender is
 * one call to the spec's pay route, so each becomes its own payment row. Answers what was paid
 * (the ticket, or the item) after the last payment taken, or null when nothing was paid.
 */
export function payDialog(ticket: { id: number; balance: number; customer_id?: number }): Promise<Ticket | null> {
  return open(`Pay ticket #${ticket.id}`, ticket.balance, (q) => payTicketBy(ticket.id, q), ticket.customer_id);
}

/**
 * One item's payment, through the same dialog and tenders (PUT /ticketSubCategory/paidFor/{id}/{amount}
 * with the method): no payment of an item bypasses the tender. The tracking screen uses it too.
 */
export function payItemDialog(item: { id: number; balance: number; ticket_id: number; name: string }): Promise<Item | null> {
  return open(`Pay ${item.name} on ticket #${item.ticket_id}`, item.balance, (q) => payItemBy(item.id, q));
}

function open<T extends { balance: number }>(title: string, balance: number, take: (q: Take) => Promise<T>, customer?: number): Promise<T | null> {
  if (balance <= 0) return Promise.resolve(null);
  const host = document.createElement("div");
  document.body.appendChild(host);
  const root = createRoot(host);
  return new Promise((resolve) => {
    const done = (value: T | null) => {
      root.unmount();
      host.remove();
      resolve(value);
    };
    root.render(<PayDialog title={title} balance={balance} take={take} done={done} customer={customer} />);
  });
}

function PayDialog<T extends { balance: number }>({
  title,
  balance: initial,
  take,
  done,
  customer,
}: {
  title: string;
  balance: number;
  take: (q: Take) => Promise<T>;
  done: (t: T | null) => void;
  /** The ticket's customer: their deposit balance is a tender (issue 34). */
  customer?: number;
}) {
  const [balance, setBalance] = useState(initial);
  const [method, setMethod] = useState<PayMethod>("cash");
  // The customer's deposit balance spendable at this shop: null while loading, "failed" when it could not load.
  const [deposit, setDeposit] = useState<number | null | "failed">(null);
  const loadDeposit = () => {
    if (customer === undefined) return;
    setDeposit(null);
    api<DepositBalance>("GET", `/customers/${customer}/balance`, { quiet: true }).then(
      (b) => setDeposit(b.spendable),
      () => setDeposit("failed"),
    );
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded once per dialog, and again when the tender is chosen.
  useEffect(loadDeposit, [customer]);
  const [amount, setAmount] = useState(initial.toFixed(2));
  const [tendered, setTendered] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [paid, setPaid] = useState<T | null>(null);
  const [note, setNote] = useState("");
  const amountRef = useRef<HTMLInputElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new balance (after a split) is the trigger to refocus the amount.
  useEffect(() => amountRef.current?.focus(), [balance]);

  const amountCents = cents(amount);
  const balanceCents = toCents(balance);
  const tenderedCents = method === "cash" && tendered.trim() !== "" ? cents(tendered) : null;
  const change = tenderedCents !== null && Number.isFinite(tenderedCents) ? changeDue(tenderedCents, amountCents) : null;
  const invalid =
    isFractionOfCent(amount) || (method === "cash" && isFractionOfCent(tendered))
      ? WHOLE_CENTS_ONLY
      : !Number.isFinite(amountCents) || amountCents <= 0
        ? "Enter the amount to take"
        : amountCents > balanceCents
          ? `More than the balance of ${euroFromEuros(balance)}`
          : tenderedCents !== null && (!Number.isFinite(tenderedCents) || tenderedCents < amountCents)
            ? "Less was handed over than the amount"
            : "";

  async function pay(e: React.FormEvent) {
    e.preventDefault();
    if (busy || invalid) return;
    setBusy(true);
    setError("");
    try {
      const query = { method, amount: toEuros(amountCents), ...(tenderedCents !== null ? { tendered: toEuros(tenderedCents) } : {}) };
      // On account past the credit limit, the box asks for a manager's PIN (withApproval's dialog).
      const t = method === "account" ? await withApproval((approval) => take({ ...query, ...(approval ? { approval } : {}) })) : await take(query);
      if (!t) return;
      if (change) toast(`Change ${euroFromEuros(toEuros(change))}`);
      if (t.balance <= 0) return done(t);
      // A split: what is left goes on another tender.
      setPaid(t);
      setNote(`Paid ${euroFromEuros(toEuros(amountCents))} by ${method}. ${euroFromEuros(t.balance)} left to pay.`);
      setBalance(t.balance);
      setAmount(t.balance.toFixed(2));
      setTendered("");
    } catch (err) {
      setError(err instanceof Error ? err.message : "Something went wrong");
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="overlay">
      <form
        className="dialog pay-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="pay-title"
        onSubmit={pay}
        onKeyDown={(e) => e.key === "Escape" && done(paid)}
      >
        <h2 id="pay-title">{title}</h2>
        <p className="pay-balance">
          Balance <strong data-testid="pay-balance">{euroFromEuros(balance)}</strong>
        </p>
        {note && (
          <p className="muted" role="status">
            {note}
          </p>
        )}
        <fieldset className="pay-tenders" aria-label="Tender">
          {[...TENDERS, ...(customer === undefined ? [] : [{ value: "balance" as const, label: "Balance" }])].map((t) => (
            <button
              key={t.value}
              type="button"
              aria-pressed={method === t.value}
              className={method === t.value ? "btn btn-primary" : "btn"}
              onClick={() => setMethod(t.value)}
            >
              {t.label}
            </button>
          ))}
        </fieldset>
        {method === "account" && <AccountTender customer={customer} amount={toEuros(amountCents)} />}
        {method === "balance" && (
          <p className="pay-deposit" role="status" data-testid="pay-deposit">
            {deposit === null ? (
              "Loading the customer's balance…"
            ) : deposit === "failed" ? (
              <>
                Could not load the customer's balance.{" "}
                <button type="button" className="btn btn-small" onClick={loadDeposit}>
                  Retry
                </button>
              </>
            ) : (
              <>Deposit balance {euroFromEuros(deposit)} spendable here</>
            )}
          </p>
        )}
        <label className="field">
          <span>Amount (€)</span>
          <input ref={amountRef} inputMode="decimal" aria-label="Amount" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </label>
        {Number.isFinite(amountCents) && amountCents > 0 && amountCents < balanceCents && (
          <p className="muted small">Split: {euroFromEuros(toEuros(balanceCents - amountCents))} stays to pay by another tender.</p>
        )}
        {method === "cash" && (
          <>
            <label className="field">
              <span>Tendered (€)</span>
              <input inputMode="decimal" aria-label="Tendered" value={tendered} onChange={(e) => setTendered(e.target.value)} />
            </label>
            {change !== null && (
              <p className="pay-change">
                Change <strong data-testid="pay-change">{euroFromEuros(toEuros(change))}</strong>
              </p>
            )}
          </>
        )}
        {(error || (invalid && amount.trim() !== "")) && (
          <p className="form-error" role="alert">
            {error || invalid}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="button" className="btn" onClick={() => done(paid)}>
            {paid ? "Close" : "Cancel"}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || !!invalid}>
            Pay
          </button>
        </div>
      </form>
    </div>
  );
}
