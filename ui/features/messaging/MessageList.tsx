import { useCallback, useEffect, useRef, useState } from "react";
import { displayDateTime } from "../../../appliance/domain/format";
import { confirmDialog } from "../../components/dialog";
import { toast } from "../../components/toast";
import { listMessages, type MessageQuery, type MessageStatus, type OutboxRow, retryMessage } from "./api";
import type { OutboxEvent } from "../../../appliance/modules/messaging/model";
import { useMessageEvents } from "./events";

/**
 * How often the list asks the box again while a row is still on its way: often while the event
 * stream is down, now and then while it is up (an event sent before the stream opened is missed).
 */
export const POLL_MS = { down: 2000, live: 5000 };
const PENDING: MessageStatus[] = ["queued", "sending"];

/** The words a shop's staff read for each state. */
export const STATUS_LABEL: Record<MessageStatus, string> = {
  queued: "queued",
  sending: "sending…",
  sent: "sent",
  failed: "failed",
  // After a crash mid-send the box could not tell whether it arrived: a person decides.
  unknown: "unknown: check",
};

const matches = (q: MessageQuery) => (e: OutboxEvent) =>
  (q.ticket_id === undefined || e.ticket_id === q.ticket_id) &&
  (q.customer_id === undefined || e.customer_id === q.customer_id) &&
  (q.batch_id === undefined || e.batch_id === q.batch_id);

/**
 * The messages of a ticket, a customer or a batch, newest first, with their state and time,
 * kept current over the events stream (and by polling while the stream is down); a failed
 * message, or one whose fate is unknown after a crash, can be sent again. `reload` changes
 * when the screen has just queued more.
 */
export function MessageList({ query, title = "Messages", reload = 0 }: { query: MessageQuery; title?: string; reload?: number }) {
  const [rows, setRows] = useState<OutboxRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [retrying, setRetrying] = useState<number | null>(null);
  const key = JSON.stringify(query);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the query (a new object on every render).
  const load = useCallback(
    () =>
      listMessages(query).then(
        (r) => {
          setRows(r);
          setError(null);
        },
        (e: Error) => setError(e.message),
      ),
    [key],
  );
  useEffect(() => {
    setRows(null);
    void load();
  }, [load]);
  // The screen queued more: read again, keeping the rows on show meanwhile.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `reload` is the trigger, not a value the effect reads; `load` changing is the effect above.
  useEffect(() => {
    if (reload) void load();
  }, [reload]);

  // Events only say which row changed and its state: the row is patched at once, and the list
  // read again a moment later (after a burst) for attempts, errors and times.
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const live = useMessageEvents(matches(query), (e) => {
    setRows((prev) => prev?.map((r) => (r.id === e.id ? { ...r, status: e.status } : r)) ?? prev);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void load(), 300);
  });
  useEffect(() => () => clearTimeout(timer.current), []);

  const pending = rows?.some((r) => PENDING.includes(r.status)) ?? false;
  useEffect(() => {
    if (!pending) return;
    const t = setInterval(() => void load(), live ? POLL_MS.live : POLL_MS.down);
    return () => clearInterval(t);
  }, [live, pending, load]);

  async function retry(r: OutboxRow) {
    // An unknown message may already be on the customer's phone: a person decides.
    if (
      r.status === "unknown" &&
      !(await confirmDialog({
        title: "Send again?",
        message: `The box lost track of this message to ${r.recipient} (it may have arrived). Send it again?`,
      }))
    )
      return;
    setRetrying(r.id);
    try {
      await retryMessage(r.id);
      toast("message/s on their way");
      await load();
    } catch {
      // The red toast already said why.
    } finally {
      setRetrying(null);
    }
  }

  return (
    <section className="card section" aria-label={title}>
      <div className="section-head">
        <h2>{title}</h2>
        {rows && rows.length > 0 && <span className="muted">{summary(rows)}</span>}
      </div>
      {error ? (
        <p className="form-error">
          Could not load the messages: {error}{" "}
          <button type="button" className="btn btn-small" onClick={() => void load()}>
            Try again
          </button>
        </p>
      ) : rows === null ? (
        <p className="muted">Loading messages…</p>
      ) : rows.length === 0 ? (
        <p className="muted">No messages yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="tickets-table messages-table">
            <thead>
              <tr>
                <th>Time</th>
                <th>To</th>
                <th>Message</th>
                <th>State</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} data-testid="message-row" data-status={r.status}>
                  <td>
                    {displayDateTime(r.created_at)}
                    {r.sent_at && <small className="muted msg-sub">sent {displayDateTime(r.sent_at)}</small>}
                  </td>
                  <td>
                    {r.recipient}
                    <small className="muted msg-sub">{r.channel === "sms" ? "SMS" : "E-mail"}</small>
                  </td>
                  <td className="msg-text" title={r.text}>
                    {r.text}
                  </td>
                  <td>
                    <span className={`badge msg-${r.status}`} data-testid="message-status">
                      {STATUS_LABEL[r.status]}
                    </span>
                    {r.attempts > 1 && <small className="muted msg-sub">{r.attempts} attempts</small>}
                    {r.last_error && r.status !== "sent" && <small className="msg-error msg-sub">{r.last_error}</small>}
                  </td>
                  <td>
                    {(r.status === "failed" || r.status === "unknown") && (
                      <button type="button" className="btn btn-small" disabled={retrying === r.id} onClick={() => void retry(r)}>
                        Retry
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** "3 sent · 1 failed" */
function summary(rows: OutboxRow[]): string {
  const n = new Map<MessageStatus, number>();
  for (const r of rows) n.set(r.status, (n.get(r.status) ?? 0) + 1);
  return [...n].map(([s, c]) => `${c} ${STATUS_LABEL[s]}`).join(" · ");
}
