import { useState } from "react";
import { addDays, businessDay } from "../../../appliance/domain/dates";
import { euroFromEuros } from "../../../appliance/domain/format";
import { isFractionOfCent, toEuros, typedCents, WHOLE_CENTS_ONLY } from "../../../appliance/domain/money";
import type { Invoice } from "../../../appliance/modules/accounts/model";
import { DateField } from "../../components/DateField";
import { Field, Section } from "../../components/form";
import { toast } from "../../components/toast";
import { api } from "../../lib/api";

/** The first and last day of last month (the shop's days): what an account is usually billed for. */
export function lastMonth(): { from: string; to: string } {
  const today = businessDay(new Date());
  const to = addDays(`${today.slice(0, 8)}01`, -1);
  return { from: `${to.slice(0, 8)}01`, to };
}

/** "Invoice a period": the account's charges from/to not invoiced yet become one invoice. */
export function InvoicePeriod({ account, onDone }: { account: number; onDone: () => void }) {
  const [period, setPeriod] = useState(lastMonth);
  const [busy, setBusy] = useState(false);
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const inv = await api<Invoice>("POST", `/accounts/${account}/invoices`, { body: period });
      toast(`Invoice ${inv.number} of ${euroFromEuros(inv.total)}`);
      onDone();
    } catch {
      // api() showed the box's message (e.g. nothing to invoice in the period).
    } finally {
      setBusy(false);
    }
  }
  return (
    <Section title="Invoice a period">
      <form className="people-grid" onSubmit={submit} aria-label="Invoice a period">
        <Field label="From">
          <DateField label="Invoice from" value={period.from} onChange={(from) => setPeriod({ ...period, from })} clearable={false} />
        </Field>
        <Field label="To">
          <DateField label="Invoice to" value={period.to} onChange={(to) => setPeriod({ ...period, to })} clearable={false} />
        </Field>
        <div>
          <button type="submit" className="btn btn-primary" disabled={busy || period.from > period.to}>
            Invoice
          </button>
        </div>
      </form>
    </Section>
  );
}

const METHODS = { bank_transfer: "Bank transfer", card: "Card", cash: "Cash", cheque: "Cheque" } as const;

/** "Take a payment": to one invoice if chosen, else the box settles the oldest open ones first. */
export function TakePayment({ account, invoices, onDone }: { account: number; invoices: { id: number; number: string; open: number }[]; onDone: () => void }) {
  const [amount, setAmount] = useState("");
  const [method, setMethod] = useState<keyof typeof METHODS>("bank_transfer");
  const [reference, setReference] = useState("");
  const [to, setTo] = useState("");
  const [busy, setBusy] = useState(false);
  const cents = typedCents(amount);
  const invalid = isFractionOfCent(amount) ? WHOLE_CENTS_ONLY : !Number.isFinite(cents) || cents <= 0 ? "Enter the amount received" : "";
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (busy || invalid) return;
    setBusy(true);
    const euros = toEuros(cents);
    try {
      await api("POST", `/accounts/${account}/payments`, {
        body: { amount: euros, method, reference, ...(to ? { allocations: [{ invoice_id: Number(to), amount: euros }] } : {}) },
      });
      toast(`Payment of ${euroFromEuros(euros)} taken`);
      setAmount("");
      setReference("");
      onDone();
    } catch {
      // api() showed the box's message; nothing was taken.
    } finally {
      setBusy(false);
    }
  }
  return (
    <Section title="Take a payment">
      <form className="people-grid" onSubmit={submit} aria-label="Take a payment">
        <label className="field">
          <span>Amount (€)</span>
          <input aria-label="Payment amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </label>
        <label className="field">
          <span>Method</span>
          <select aria-label="Payment method" value={method} onChange={(e) => setMethod(e.target.value as keyof typeof METHODS)}>
            {Object.entries(METHODS).map(([k, v]) => (
              <option key={k} value={k}>
                {v}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Reference</span>
          <input aria-label="Payment reference" value={reference} onChange={(e) => setReference(e.target.value)} />
        </label>
        <label className="field">
          <span>Allocate to</span>
          <select aria-label="Allocate to" value={to} onChange={(e) => setTo(e.target.value)}>
            <option value="">Oldest open invoices first</option>
            {invoices.map((i) => (
              <option key={i.id} value={i.id}>
                {i.number} ({euroFromEuros(i.open)} open)
              </option>
            ))}
          </select>
        </label>
        <div>
          {invalid && amount.trim() !== "" && <p className="form-error">{invalid}</p>}
          <button type="submit" className="btn btn-primary" disabled={busy || !!invalid}>
            Take payment
          </button>
        </div>
      </form>
    </Section>
  );
}
