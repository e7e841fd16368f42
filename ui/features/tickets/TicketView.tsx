import { useEffect, useState } from "react";
import { Link } from "wouter";
import { displayDate, euroFromEuros } from "../../../appliance/domain/format";
import { backTo } from "../../app/Header";
import { confirmDialog } from "../../components/dialog";
import { toast } from "../../components/toast";
import { api, apiList } from "../../lib/api";
import { withApproval } from "../../components/approval";
import { type Ticket, type TicketState, getTicket, payLabel, putTicket, setTicketDiscount, vat } from "./api";
import { PrintButton } from "../printing/PrinterDialog";
import { History } from "./History";
import { ItemRow } from "./ItemRow";

/** Spec §2 ticket view; back goes to the ticket's customer. */
export function TicketView({ params }: { params: Record<string, string | undefined> }) {
  const id = Number(params.id);
  const [t, setT] = useState<Ticket | null>(null);
  const [states, setStates] = useState<TicketState[]>([]);
  useEffect(() => {
    getTicket(id).then(setT, () => {});
    apiList<TicketState>("/ticketStates/").then(setStates);
  }, [id]);
  useEffect(() => {
    if (t) backTo.value = `/customers/${t.customer_id}`;
    return () => void (backTo.value = null);
  }, [t?.customer_id]);
  if (!t) return <p className="muted">Loading the ticket…</p>;

  async function setState(state: string) {
    const r = await api<{ success: boolean }>("PUT", "/tickets/changeState", { body: { Ids: [t!.id], State: state } }).catch(() => null);
    if (r?.success) {
      toast("Information Saved");
      setT(await getTicket(id));
    }
  }
  async function payAll() {
    if (t!.balance <= 0) return;
    if (!(await confirmDialog({ title: "Pay in full", message: `Take ${euroFromEuros(t!.balance)} for ticket #${t!.id}?` }))) return;
    setT(await putTicket(`/tickets/paidFor/${t!.id}`));
  }
  async function discount() {
    const v = window.prompt("Ticket discount (%)", String(Number(/\d+/.exec(t!.discount)?.[0] ?? 0)));
    if (v === null) return;
    const changed = await withApproval(setTicketDiscount(t!.id, Math.min(100, Math.max(0, Math.round(Number(v) || 0)))));
    if (changed) setT(changed);
  }
  const split = vat(t.total);
  return (
    <div className="stack">
      <section className="card ticket-head">
        <div>
          <h2>Ticket #{t.id}</h2>
          <p>
            <Link href={`/customers/${t.customer_id}`}>{t.customer.full_name}</Link> · {t.customer.mobile && <a href={`tel:${t.customer.mobile}`}>{t.customer.mobile}</a>}
            {t.customer.landline && (
              <>
                {" "}
                · <a href={`tel:${t.customer.landline}`}>{t.customer.landline}</a>
              </>
            )}
          </p>
          <p className="muted">
            {t.agent} · taken by {t.employee} · pickup {displayDate(t.pickup_date)} · delivery {displayDate(t.delivery_date)}
          </p>
        </div>
        <label className="field state-picker">
          <span>State</span>
          <select aria-label="State" value={t.state} onChange={(e) => setState(e.target.value)}>
            {states.map((s) => (
              <option key={s.id} value={s.name}>
                {s.name || "(none)"}
              </option>
            ))}
          </select>
        </label>
      </section>
      <section className="card">
        {t.ticket_sub_categories.map((i) => (
          <ItemRow key={i.id} item={i} />
        ))}
        <div className="totals">
          <span>Subtotal {euroFromEuros(split.subtotal)}</span>
          <span>VAT 18% {euroFromEuros(split.vat)}</span>
          <strong data-testid="ticket-total">Total {euroFromEuros(t.total)}</strong>
          <span>Paid {euroFromEuros(t.total_paid)}</span>
        </div>
        <div className="form-buttons">
          <button type="button" className="btn" onClick={discount}>
            Discount
          </button>
          <button type="button" className="btn" disabled title="Messages come with the messaging release">
            Message status
          </button>
          <Link href={`/customers/${t.customer_id}/new-ticket/${t.id}`} className="btn">
            Edit
          </Link>
          <PrintButton ticketId={t.id} empty={t.ticket_sub_categories.length === 0} onPrinted={() => void getTicket(t.id).then(setT)} />
          <button type="button" className="btn btn-primary" data-testid="pay-ticket" onClick={payAll}>
            {payLabel(t.balance, euroFromEuros)}
          </button>
        </div>
      </section>
      <History logs={t.ticket_log_states} />
    </div>
  );
}
