import { useEffect, useState } from "react";
import { displayDateTime } from "../../../appliance/domain/format";
import { LoadFailed } from "../../components/LoadFailed";
import { toast } from "../../components/toast";
import { useList } from "../../lib/useList";
import { handleInbox, type InboxEntry, listInbox, replyInbox } from "./api";

/** What the box did with a text, in the shop's words. */
const ACTION: Record<InboxEntry["action"], string> = {
  confirmed: "Pickup confirmed",
  skipped: "Pickup skipped",
  stopped: "Asked for no messages",
  inbox: "For you to read",
};

/**
 * The inbox (issue 35): texts the box could not act on by itself, and pickups a customer
 * skipped, newest first. Staff answer by SMS (through the outbox) or mark one handled.
 */
export function InboxScreen() {
  const [all, setAll] = useState(false);
  const list = useList(() => listInbox(all), String(all));
  return (
    <div className="stack inbox">
      <div className="toolbar">
        <span className="muted">Replies to pickup reminders and other texts to the shop's phone.</span>
        <label className="check">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> Show handled too
        </label>
      </div>
      <LoadFailed what="the inbox" error={list.error} onRetry={() => void list.retry()} />
      {list.items && !list.items.length && !list.error && <p className="muted">Nothing waiting.</p>}
      {list.items?.map((e) => (
        <InboxItem key={e.id} entry={e} onChange={() => void list.retry()} />
      ))}
    </div>
  );
}

function InboxItem({ entry: e, onChange }: { entry: InboxEntry; onChange: () => void }) {
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await work();
      toast(done);
      onChange();
    } catch {
      // The red toast said why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" data-testid="inbox-entry" aria-label={`Text from ${e.customer_full_name ?? e.phone}`}>
      <header className="row-between">
        <strong>{e.customer_full_name ?? "Unknown number"}</strong>
        <span className="muted">
          {e.phone} · {displayDateTime(e.received_at)}
        </span>
      </header>
      <p className="inbox-text">{e.text}</p>
      <p className="muted">
        {ACTION[e.action]}
        {e.note ? `: ${e.note}` : ""}
        {e.handled_at ? ` · handled ${displayDateTime(e.handled_at)}` : ""}
      </p>
      {!e.handled_at && (
        <div className="row-buttons">
          <input aria-label="Answer" value={text} maxLength={1000} onChange={(x) => setText(x.target.value)} placeholder="Answer by SMS" />
          <button
            type="button"
            className="btn primary"
            disabled={busy || !text.trim()}
            onClick={() => void run(() => replyInbox(e.id, text.trim()), "message/s on their way")}
          >
            Send
          </button>
          <button type="button" className="btn" disabled={busy} onClick={() => void run(() => handleInbox(e.id), "Information Saved")}>
            Handled
          </button>
        </div>
      )}
    </section>
  );
}

/** How many texts wait in the inbox (the badge beside the Inbox button); null until known or when it cannot be read. */
export function useInboxCount(): number | null {
  const [n, setN] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    listInbox(false).then(
      (r) => live && setN(r.length),
      () => live && setN(null),
    );
    return () => {
      live = false;
    };
  }, []);
  return n;
}
