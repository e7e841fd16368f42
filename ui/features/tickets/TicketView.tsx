import { useEffect, useState } from "react";
import { Link } from "wouter";
import { displayDate, euro, euroFromEuros } from "../../../appliance/domain/format";
import { toCents } from "../../../appliance/domain/money";
import { vatSplit } from "../../../appliance/domain/pricing";
import { backTo } from "../../app/Header";
import { LoadFailed } from "../../components/LoadFailed";
import { toast } from "../../components/toast";
import { loadFailure } from "../../lib/api";
import { useList } from "../../lib/useList";
import type { Ticket } from "../../../appliance/modules/tickets/model";
import { getTicket, listTicketStates, payLabel, setTicketsState } from "./api";
import { payDialog } from "./PayDialog";
import { askTicketDiscount } from "./discount";
import { PrintButton } from "../printing/PrinterDialog";
import { History } from "./History";
import { Payments } from "./Payments";
import { ItemRow } from "./ItemRow";
import { ProcessFeedback } from "./ProcessFeedback";
import { TicketStops } from "./TicketStops";
import { WhereItIs } from "../scan/Where";
import { MessageList } from "../messaging/MessageList";
import { askAndSendStatusMessage } from "../messaging/statusMessage";

/** Spec §2 ticket view; back goes to the ticket's customer. */
export function TicketView({ params }: { params: Record<string, string | undefined> }) {
  const id = Number(params.id);
  const [t, setT] = useState<Ticket | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const states = useList(listTicketStates);
  const [messaging, setMessaging] = useState(false);
  const [sent, setSent] = useState(0);
  // A ticket that failed to load says so with Retry, never "Loading…" for ever (issue 31).
  const load = () =>
    getTicket(id).then(
      (got) => (setT(got), setFailed(null)),
      (e) => setFailed(loadFailure(e)),
    );
  // biome-ignore lint/correctness/useExhaustiveDependencies: load reads only id
  useEffect(() => void load(), [id]);
  useEffect(() => {
    if (t) backTo.value = `/customers/${t.customer_id}`;
    return () => void (backTo.value = null);
  }, [t?.customer_id]);
  if (!t) return failed ? <LoadFailed what="the ticket" error={failed} onRetry={() => void load()} /> : <p className="muted">Loading the ticket…</p>;

  async function setState(state: string) {
    const r = await setTicketsState([t!.id], state).catch(() => null);
    if (r?.success) {
      toast("Information Saved");
      setT(await getTicket(id));
    }
  }
  async function payAll() {
    if (await payDialog(t!)) setT(await getTicket(id));
  }
  async function discount() {
    const changed = await askTicketDiscount(t!);
    if (changed) setT(changed);
  }
  /** Spec §2/§8: the ticket's status message to its customer, any staff role, shown and asked first (issue 25); the list below follows it. */
  async function messageStatus() {
    setMessaging(true);
    try {
      if (await askAndSendStatusMessage(t!.id)) setSent((n) => n + 1);
    } finally {
      setMessaging(false);
    }
  }
  const split = vatSplit(toCents(t.total));
  return (
    <div className="stack">
      <section className="card ticket-head">
        <div>
          <h2>Ticket #{t.id}</h2>
          <p>
            <Link href={`/customers/${t.customer_id}`}>{t.customer.full_name}</Link> ·{" "}
            {t.customer.mobile && <a href={`tel:${t.customer.mobile}`}>{t.customer.mobile}</a>}
            {t.customer.landline && (
              <>
                {" "}
                · <a href={`tel:${t.customer.landline}`}>{t.customer.landline}</a>
              </>
            )}
          </p>
          <WhereItIs items={t.ticket_sub_categories} />
          <p className="muted">
            {t.agent} · taken by {t.employee} · pickup {displayDate(t.pickup_date)} · delivery {displayDate(t.delivery_date)}
          </p>
        </div>
        <label className="field state-picker">
          <span>State</span>
          <select aria-label="State" value={t.state} onChange={(e) => setState(e.target.value)}>
            {(states.items ?? []).map((s) => (
              <option key={s.id} value={s.name}>
                {s.name || "(none)"}
              </option>
            ))}
          </select>
        </label>
        <LoadFailed what="the ticket states" error={states.error} onRetry={() => void states.retry()} />
      </section>
      <TicketStops ticket={t} />
      <section className="card">
        {t.ticket_sub_categories.map((i) => (
          <ItemRow key={i.id} item={i} />
        ))}
        <div className="totals">
          <span>Subtotal {euro(split.subtotal)}</span>
          <span>VAT 18% {euro(split.vat)}</span>
          <strong data-testid="ticket-total">Total {euroFromEuros(t.total)}</strong>
          <span>Paid {euroFromEuros(t.total_paid)}</span>
        </div>
        <Payments ticketId={t.id} version={t.total_paid} onRefunded={() => void getTicket(id).then(setT)} />
        <div className="form-buttons">
          <button type="button" className="btn" onClick={discount}>
            Discount
          </button>
          <button type="button" className="btn" disabled={messaging} onClick={messageStatus}>
            Message status
          </button>
          <Link href={`/customers/${t.customer_id}/new-ticket/${t.id}`} className="btn">
            Edit
          </Link>
          <PrintButton ticketId={t.id} empty={t.ticket_sub_categories.length === 0} onPrinted={() => void getTicket(t.id).then(setT)} />
          <button type="button" className="btn btn-primary" data-testid="pay-ticket" onClick={payAll}>
            {payLabel(t, euroFromEuros)}
          </button>
        </div>
      </section>
      <ProcessFeedback actionIds={t.ticket_sub_categories.flatMap((i) => i.actions.map((a) => a.actionID))} />
      <History logs={t.ticket_log_states} />
      <MessageList query={{ ticket_id: t.id }} reload={sent} />
    </div>
  );
}
