import { useState } from "react";
import { Link } from "wouter";
import { displayDate, displayDateTime, euroFromEuros } from "../../../appliance/domain/format";
import type { Invoice, PAYMENT_METHODS } from "../../../appliance/modules/accounts/model";
import { confirmDialog } from "../../components/dialog";
import { LoadFailed } from "../../components/LoadFailed";
import { Section } from "../../components/form";
import { toast } from "../../components/toast";
import { api } from "../../lib/api";
import { CreditForm } from "./CreditForm";
import { downloadFile, useLoad } from "./load";

const METHOD_NAMES: Record<(typeof PAYMENT_METHODS)[number], string> = { bank_transfer: "bank transfer", card: "card", cash: "cash", cheque: "cheque" };

/** An invoice (issue 34): its lines, VAT per rate, totals, credit notes; PDF, Send, Credit. */
export function InvoiceScreen({ params }: { params: Record<string, string | undefined> }) {
  const id = Number(params.id);
  const inv = useLoad<Invoice>(`/invoices/${id}`);
  const [busy, setBusy] = useState(false);
  const [crediting, setCrediting] = useState(false);
  const [problem, setProblem] = useState("");
  const i = inv.data;

  async function pdf() {
    setProblem("");
    try {
      toast(`Saved ${await downloadFile(`/invoices/${id}/pdf`, `Invoice ${i?.number ?? id}.pdf`)}`);
    } catch (e) {
      setProblem((e as Error).message);
    }
  }
  async function send() {
    if (!i || busy) return;
    // Sent once already: the box would answer the first send; again only when asked.
    const again = i.sent.length > 0;
    if (
      again &&
      !(await confirmDialog({
        title: "Send again?",
        message: `Invoice ${i.number} was e-mailed to ${i.sent[0]!.recipient}. Send it again?`,
        okText: "Send again",
      }))
    )
      return;
    setBusy(true);
    try {
      await api<Invoice>("POST", `/invoices/${id}/send`, { query: again ? { again: "true" } : {} });
      toast(`Invoice ${i.number} sent`);
      inv.reload();
    } catch {
      // api() showed the box's message (e.g. the account has no e-mail address).
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="stack">
      <LoadFailed what="the invoice" error={inv.error} onRetry={inv.reload} />
      {!i && !inv.error && <p className="muted">Loading the invoice…</p>}
      {i && (
        <Section
          title={`Invoice ${i.number}`}
          actions={
            <>
              <button type="button" className="btn" onClick={pdf}>
                PDF
              </button>{" "}
              <button type="button" className="btn" onClick={send} disabled={busy}>
                Send
              </button>{" "}
              <button type="button" className="btn" onClick={() => setCrediting(!crediting)} disabled={i.open <= 0}>
                Credit
              </button>
            </>
          }
        >
          {problem && (
            <p className="form-error" role="alert">
              {problem}
            </p>
          )}
          <p>
            <Link href={`/accounts/${i.account_id}`}>{i.account_name}</Link>
            {i.vat_number && <> · VAT {i.vat_number}</>} · {displayDate(i.period_from)}–{displayDate(i.period_to)} · issued {displayDate(i.issued_on)} · due{" "}
            <span data-testid="invoice-due">{displayDate(i.due_on)}</span>
          </p>
          {crediting && (
            <CreditForm
              invoice={i}
              onDone={() => {
                setCrediting(false);
                inv.reload();
              }}
            />
          )}
          <div className="people-table-wrap">
            <table className="table" data-testid="invoice-lines">
              <thead>
                <tr>
                  <th>Ticket</th>
                  <th>Item</th>
                  <th className="num">VAT %</th>
                  <th className="num">Net</th>
                  <th className="num">VAT</th>
                  <th className="num">Gross</th>
                </tr>
              </thead>
              <tbody>
                {i.lines.map((l, n) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: an issued invoice's lines never change
                  <tr key={n}>
                    <td>
                      <Link href={`/tickets/${l.ticket_id}`}>#{l.ticket_id}</Link>
                    </td>
                    <td>{l.description}</td>
                    <td className="num">{l.vat_rate}</td>
                    <td className="num">{euroFromEuros(l.net)}</td>
                    <td className="num">{euroFromEuros(l.vat)}</td>
                    <td className="num">{euroFromEuros(l.gross)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                {i.vat.map((v) => (
                  <tr key={v.rate}>
                    <th colSpan={2}>VAT at {v.rate}%</th>
                    <td />
                    <td className="num">{euroFromEuros(v.net)}</td>
                    <td className="num">{euroFromEuros(v.vat)}</td>
                    <td className="num">{euroFromEuros(v.gross)}</td>
                  </tr>
                ))}
                <tr>
                  <th colSpan={5}>Total</th>
                  <td className="num" data-testid="invoice-total">
                    {euroFromEuros(i.total)}
                  </td>
                </tr>
                <tr>
                  <th colSpan={5}>Credited</th>
                  <td className="num">{euroFromEuros(i.credited)}</td>
                </tr>
                <tr>
                  <th colSpan={5}>Paid</th>
                  <td className="num">{euroFromEuros(i.paid)}</td>
                </tr>
                <tr>
                  <th colSpan={5}>Still due</th>
                  <td className="num" data-testid="invoice-open">
                    {euroFromEuros(i.open)}
                  </td>
                </tr>
              </tfoot>
            </table>
          </div>
          {i.credit_notes.length > 0 && (
            <table className="table small" data-testid="credit-notes">
              <tbody>
                {i.credit_notes.map((c) => (
                  <tr key={c.id}>
                    <td>{c.number}</td>
                    <td>{displayDate(c.issued_on)}</td>
                    <td>{c.reason}</td>
                    <td className="num">{euroFromEuros(c.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h3>Settled by</h3>
          {i.allocations.length === 0 ? (
            <p className="muted">No payment or credit note yet.</p>
          ) : (
            <table className="table small" data-testid="invoice-allocations">
              <thead>
                <tr>
                  <th>Date</th>
                  <th>What</th>
                  <th>Reference</th>
                  <th className="num">Amount</th>
                </tr>
              </thead>
              <tbody>
                {i.allocations.map((x) => (
                  <tr key={`${x.kind}-${x.id}`}>
                    <td>{displayDate(x.date)}</td>
                    <td>{x.kind === "payment" ? `Payment (${METHOD_NAMES[x.method ?? "cash"]})` : "Credit note"}</td>
                    <td>{x.reference || "—"}</td>
                    <td className="num">{euroFromEuros(x.amount)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th colSpan={3}>Still due</th>
                  <td className="num">{euroFromEuros(i.open)}</td>
                </tr>
              </tfoot>
            </table>
          )}
          <p className="muted" data-testid="invoice-sent">
            {i.sent.length === 0 ? "Not sent yet." : i.sent.map((s) => `Sent to ${s.recipient} ${displayDateTime(s.at)} (${s.status})`).join(" · ")}
          </p>
        </Section>
      )}
    </div>
  );
}
