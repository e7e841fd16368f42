import { useState } from "react";
import { Link } from "wouter";
import { displayDate, euroFromEuros } from "../../../appliance/domain/format";
import type { Account, Invoice } from "../../../appliance/modules/accounts/model";
import { LoadFailed } from "../../components/LoadFailed";
import { Section } from "../../components/form";
import { toast } from "../../components/toast";

import { AccountForm } from "./AccountForm";
import { ChargesPanel } from "./ChargesPanel";
import { InvoicePeriod, TakePayment } from "./AccountActions";
import { StatementView } from "./StatementView";
import { useLoad } from "./load";

type InvoiceRow = Omit<Invoice, "lines" | "vat" | "credit_notes" | "sent">;

/**
 * An account (issue 34): its details, balance and limit, its charged tickets, its invoices, invoicing a period,
 * a payment on account, and its statement for a period.
 */
export function AccountScreen({ params }: { params: Record<string, string | undefined> }) {
  const id = Number(params.id);
  const account = useLoad<Account>(`/accounts/${id}`);
  const invoices = useLoad<InvoiceRow[]>(`/accounts/${id}/invoices`);
  const [editing, setEditing] = useState(false);
  const changed = () => {
    account.reload();
    invoices.reload();
  };
  const a = account.data;
  return (
    <div className="stack">
      <LoadFailed what="the account" error={account.error} onRetry={account.reload} />
      {!a && !account.error && <p className="muted">Loading the account…</p>}
      {a && (
        <Section
          title={a.name}
          actions={
            <button type="button" className="btn" onClick={() => setEditing(!editing)}>
              {editing ? "Close" : "Edit"}
            </button>
          }
        >
          {editing ? (
            <AccountForm
              account={a}
              onCancel={() => setEditing(false)}
              onSaved={() => {
                toast("Account saved");
                setEditing(false);
                account.reload();
              }}
            />
          ) : (
            <dl className="facts" data-testid="account-facts">
              <dt>Balance</dt>
              <dd data-testid="account-balance">{euroFromEuros(a.balance)}</dd>
              <dt>Credit limit</dt>
              <dd>{euroFromEuros(a.credit_limit)}</dd>
              <dt>Terms</dt>
              <dd>{a.terms_days} days</dd>
              <dt>Billing</dt>
              <dd>
                {a.billing_contact} {a.email}
              </dd>
              <dt>Shop</dt>
              <dd>{a.agent_name}</dd>
              <dt>VAT number</dt>
              <dd>{a.vat_number || "—"}</dd>
              <dt>Customers</dt>
              <dd>
                {a.customers.length === 0 && "—"}
                {a.customers.map((c, n) => (
                  <span key={c.id}>
                    {n > 0 && ", "}
                    <Link href={`/customers/${c.id}`}>{c.full_name}</Link>
                  </span>
                ))}
              </dd>
            </dl>
          )}
        </Section>
      )}
      <ChargesPanel key={String(invoices.data?.length ?? 0)} account={id} />
      <Section title="Invoices">
        <LoadFailed what="the invoices" error={invoices.error} onRetry={invoices.reload} />
        {!invoices.data && !invoices.error && <p className="muted">Loading the invoices…</p>}
        {invoices.data && invoices.data.length === 0 && <p className="muted">No invoices yet.</p>}
        {invoices.data && invoices.data.length > 0 && (
          <div className="people-table-wrap">
            <table className="table" data-testid="account-invoices">
              <thead>
                <tr>
                  <th>Number</th>
                  <th>Period</th>
                  <th>Due</th>
                  <th className="num">Total</th>
                  <th className="num">Open</th>
                </tr>
              </thead>
              <tbody>
                {invoices.data.map((i) => (
                  <tr key={i.id}>
                    <td>
                      <Link href={`/invoices/${i.id}`}>{i.number}</Link>
                    </td>
                    <td>
                      {displayDate(i.period_from)}–{displayDate(i.period_to)}
                    </td>
                    <td>{displayDate(i.due_on)}</td>
                    <td className="num">{euroFromEuros(i.total)}</td>
                    <td className="num">{euroFromEuros(i.open)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
      <InvoicePeriod account={id} onDone={changed} />
      <TakePayment account={id} invoices={(invoices.data ?? []).filter((i) => i.open > 0)} onDone={changed} />
      <StatementView account={id} />
    </div>
  );
}
