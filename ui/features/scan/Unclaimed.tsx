import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { displayDate, euroFromEuros } from "../../../appliance/domain/format";
import { UNCLAIMED_DAYS } from "../../../appliance/domain/racks";
import type { Unclaimed } from "../../../appliance/modules/tracking/model";
import { confirmDialog } from "../../components/dialog";
import { LoadFailed } from "../../components/LoadFailed";
import { toast } from "../../components/toast";
import { loadFailure } from "../../lib/api";
import { employee } from "../../lib/session";
import { listUnclaimed, sendReminder } from "./api";

const REMINDER =
  "Hello, your items at Ironbox have been ready for collection for over {days} days. Please collect them soon: items left over 3 months may be disposed of. Thank you.";

/**
 * /unclaimed (issue 25): items ready and not collected for more than 30, 60 or 90 days, with
 * the customer's contact, and one reminder to their customers through messaging's bulk send
 * (admins; it skips and counts those who asked for no messages).
 */
export function UnclaimedScreen() {
  useSignals();
  const [days, setDays] = useState<number>(UNCLAIMED_DAYS[0]);
  const [list, setList] = useState<Unclaimed | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [text, setText] = useState(REMINDER);
  const [sending, setSending] = useState(false);
  const admin = employee.value?.role === "admin";

  const load = (d = days) =>
    listUnclaimed(d).then(
      (r) => (setList(r), setFailed(null)),
      (e) => setFailed(loadFailure(e)),
    );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the chosen threshold is the trigger.
  useEffect(() => void load(days), [days]);

  const items = list?.items ?? [];
  const customers = [...new Map(items.map((i) => [i.customer_id, i])).values()];
  const reachable = customers.filter((c) => !c.no_messages);

  async function remind() {
    if (!reachable.length) return toast("No customer on the list takes messages", "warning");
    const skipped = customers.length - reachable.length;
    const ok = await confirmDialog({
      message: `Send the reminder to ${reachable.length} customer${reachable.length === 1 ? "" : "s"}?${skipped ? ` ${skipped} asked for no messages and will be skipped.` : ""}`,
    });
    if (!ok) return;
    setSending(true);
    try {
      const r = await sendReminder(
        reachable.map((c) => c.customer_id),
        text.replaceAll("{days}", String(days)),
      );
      const skip = r.skipped.no_messages + r.skipped.no_address;
      toast(`Reminder queued for ${r.queued} customer${r.queued === 1 ? "" : "s"}${skip ? `; ${skip} skipped` : ""}`);
    } catch {
      // The red toast already said why.
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="stack">
      <section className="card section" aria-label="Unclaimed items">
        <div className="section-head">
          <h2>Ready, not collected</h2>
          <div className="tabs" role="tablist" aria-label="Not collected for more than">
            {UNCLAIMED_DAYS.map((d) => (
              <button key={d} type="button" role="tab" aria-selected={days === d} className={`tab ${days === d ? "tab-on" : ""}`} onClick={() => setDays(d)}>
                {d} days
              </button>
            ))}
          </div>
        </div>
        <LoadFailed what="the unclaimed items" error={failed} onRetry={() => void load()} />
        {list && items.length === 0 && <p className="muted">No item has waited more than {days} days.</p>}
        {items.length > 0 && (
          <>
            <p className="muted">
              {items.length} item{items.length === 1 ? "" : "s"} of {customers.length} customer{customers.length === 1 ? "" : "s"}
              {list?.truncated ? " (the oldest 500)" : ""}
            </p>
            <div className="table-scroll">
              <table className="tickets-table">
                <thead>
                  <tr>
                    <th>Item</th>
                    <th>Ready since</th>
                    <th>Where</th>
                    <th>Customer</th>
                    <th>Contact</th>
                    <th>Owed</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((i) => (
                    <tr key={i.id} data-testid="unclaimed-row">
                      <td>
                        {i.description} · <Link href={`/tickets/${i.ticket_id}`}>ticket #{i.ticket_id}</Link>
                      </td>
                      <td>
                        {displayDate(i.ready_since)} ({i.days} days)
                      </td>
                      <td>{i.location || "—"}</td>
                      <td>
                        <Link href={`/customers/${i.customer_id}`}>{i.customer_name}</Link>
                        {i.no_messages && <span className="muted small"> · no messages</span>}
                      </td>
                      <td>
                        {[i.mobile, i.landline].filter(Boolean).map((n) => (
                          <a key={n} href={`tel:${n}`} className="contact">
                            {n}
                          </a>
                        ))}
                        {i.email_address && (
                          <a href={`mailto:${i.email_address}`} className="contact">
                            {i.email_address}
                          </a>
                        )}
                      </td>
                      <td className="price">{euroFromEuros(i.balance)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
      {items.length > 0 && (
        <section className="card section" aria-label="Reminder">
          <h2>Reminder</h2>
          {admin ? (
            <>
              <label className="field">
                <span>
                  Message ({"{days}"} becomes {days})
                </span>
                <textarea rows={3} value={text} onChange={(e) => setText(e.target.value)} />
              </label>
              <div className="form-buttons">
                <button type="button" className="btn btn-primary" disabled={sending || !text.trim()} onClick={remind}>
                  Send the reminder to {reachable.length} customer{reachable.length === 1 ? "" : "s"}
                </button>
              </div>
            </>
          ) : (
            <p className="muted">An admin sends reminders from here; call the customers above meanwhile.</p>
          )}
        </section>
      )}
    </div>
  );
}
