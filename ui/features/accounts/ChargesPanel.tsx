import { Link } from "wouter";
import { apiDate, displayDate, euroFromEuros } from "../../../appliance/domain/format";
import type { ChargedTicket } from "../../../appliance/modules/accounts/model";
import { LoadFailed } from "../../components/LoadFailed";
import { Section } from "../../components/form";
import { useLoad } from "./load";

/** The tickets charged to an account (GET /accounts/{id}/charges), newest first, each with the invoice that billed it. */
export function ChargesPanel({ account }: { account: number }) {
  const charges = useLoad<ChargedTicket[]>(`/accounts/${account}/charges`);
  return (
    <Section title="Charged tickets">
      <LoadFailed what="the charged tickets" error={charges.error} onRetry={charges.reload} />
      {!charges.data && !charges.error && <p className="muted">Loading the charged tickets…</p>}
      {charges.data && charges.data.length === 0 && <p className="muted">No ticket charged to this account yet.</p>}
      {charges.data && charges.data.length > 0 && (
        <div className="people-table-wrap">
          <table className="table" data-testid="account-charges">
            <thead>
              <tr>
                <th>Charged</th>
                <th>Ticket</th>
                <th className="num">Amount</th>
                <th>Invoice</th>
              </tr>
            </thead>
            <tbody>
              {charges.data.map((c) => (
                <tr key={c.ticket_id}>
                  {/* The day in the shop's zone (apiDate), shown DD/MM/YYYY. */}
                  <td>{displayDate(apiDate(new Date(c.at)))}</td>
                  <td>
                    <Link href={`/tickets/${c.ticket_id}`}>#{c.ticket_id}</Link>
                  </td>
                  <td className="num">{euroFromEuros(c.amount)}</td>
                  <td>{c.invoice_id ? <Link href={`/invoices/${c.invoice_id}`}>{c.invoice_number}</Link> : <span className="muted">Not invoiced</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
