import { useCallback, useEffect, useRef, useState } from "react";
import { LoadFailed } from "../../components/LoadFailed";
import { DateField } from "../../components/DateField";
import { Link } from "wouter";
import { useInboxCount } from "./InboxScreen";
import { displayDate } from "../../../appliance/domain/format";
import { MESSAGE_TEXT_MAX } from "../../../appliance/domain/messageTemplate";
import type { Customer } from "../../../appliance/modules/customers/model";
import { Field, Section, Toggle } from "../../components/form";
import { toast } from "../../components/toast";
import { fetchList, loadFailure } from "../../lib/api";
import { ChipToggles } from "../people/fields";
import { type BatchCounts, type BulkCount, batchCounts, countBulk, type SendResult, sendBulk } from "./api";
import { useMessageEvents } from "./events";
import { MessageList, POLL_MS } from "./MessageList";
import { SmsLength } from "./SmsLength";

/** Spec §2: the customer multi-select shows 20 per search. */
export const SEARCH_LIMIT = 20;
/** Spec §2: the Message text area's rows. */
const TEXT_ROWS = 5;

type Pickable = Pick<Customer, "id" | "full_name"> & { no_messages?: boolean };
const chipName = (c: Pickable) => (c.no_messages ? `${c.full_name} (no messages)` : c.full_name);

const many = (n: number, one: string, more: string) => `${n} ${n === 1 ? one : more}`;
/** "Are you sure!" with who gets the message and who is skipped and why. */
export function confirmText(c: BulkCount): string {
  const lines = [`Are you sure! ${many(c.will_send, "customer", "customers")} will get this message.`];
  if (c.skipped.no_messages) lines.push(`${many(c.skipped.no_messages, "customer is", "customers are")} skipped: asked for no messages.`);
  if (c.skipped.no_address) lines.push(`${many(c.skipped.no_address, "customer is", "customers are")} skipped: no mobile or e-mail.`);
  return lines.join("\n");
}

/**
 * Spec §2 Messaging: All Customers, a searchable
 * multi-select of customers by full name, a delivery-date filter with Clear, a 5-row
 * message and Send (the browser's "Are you sure!" with the counts first); then 'message/s on
 * their way' and the batch's progress, live, at the top.
 */
export function MessagingScreen() {
  const inbox = useInboxCount();
  const [all, setAll] = useState(false);
  const [chosen, setChosen] = useState<Map<number, Pickable>>(new Map());
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [batch, setBatch] = useState<SendResult | null>(null);

  const toggle = (c: Pickable) =>
    setChosen((prev) => {
      const next = new Map(prev);
      if (!next.delete(c.id)) next.set(c.id, c);
      return next;
    });
  const addAll = (list: Pickable[]) =>
    setChosen((prev) => {
      const next = new Map(prev);
      for (const c of list) next.set(c.id, c);
      return next;
    });

  const ready = text.trim() !== "" && (all || chosen.size > 0);
  async function send() {
    if (!ready || sending) return;
    setSending(true);
    try {
      const ids = all ? [] : [...chosen.keys()];
      // Spec §2/§8: the browser's own "Are you sure!", saying who gets it and who is skipped (issue 25).
      if (!window.confirm(confirmText(await countBulk(all, ids)))) return;
      const r = await sendBulk(all, ids, text.trim());
      toast("message/s on their way");
      setBatch(r);
      setText("");
      // The chosen customers stay chosen: a second message to the same people needs no new search.
    } catch {
      // The red toast already said why; the message stays for another try.
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="stack messaging">
      <div className="toolbar">
        <span className="muted">Send a message to the shop's customers by SMS, or e-mail when they have no mobile.</span>
        <span className="row-buttons">
          <Link href="/messaging/inbox" className="btn">
            Inbox
            {inbox ? (
              <span className="badge" title={`${inbox} waiting`} data-testid="inbox-count">
                {inbox}
              </span>
            ) : null}
          </Link>
          <Link href="/messaging/templates" className="btn">
            Status templates
          </Link>
          <Link href="/messaging/settings" className="btn">
            Settings
          </Link>
        </span>
      </div>

      {/* The last send's progress comes first: it is what the screen answers with (issue 25). */}
      {batch && <BatchProgress batch={batch} />}

      <Section title="To">
        <Toggle label="All Customers" checked={all} onChange={setAll} />
        {all ? (
          <p className="muted">Every customer of this shop, except those who asked for no messages.</p>
        ) : (
          <CustomerPicker chosen={chosen} onToggle={toggle} onAddAll={addAll} />
        )}
        {!all && chosen.size > 0 && (
          <fieldset className="msg-chosen">
            <legend>
              Chosen{" "}
              <small className="muted">
                {chosen.size} customer{chosen.size === 1 ? "" : "s"}
              </small>{" "}
              <button type="button" className="btn btn-small" onClick={() => setChosen(new Map())}>
                Remove all
              </button>
            </legend>
            <ChipToggles
              label="Chosen customers"
              items={[...chosen.values()].map((c) => ({ id: c.id, name: chipName(c) }))}
              selected={new Set(chosen.keys())}
              onToggle={(id) => toggle(chosen.get(id)!)}
            />
          </fieldset>
        )}
      </Section>

      <Section title="Message">
        <Field label="Message">
          <textarea name="message" rows={TEXT_ROWS} maxLength={MESSAGE_TEXT_MAX} value={text} onChange={(e) => setText(e.target.value)} />
        </Field>
        <SmsLength text={text} />
        <div className="form-buttons">
          <button type="button" className="btn btn-primary" disabled={!ready || sending} onClick={() => void send()}>
            {sending ? "Sending…" : "Send"}
          </button>
        </div>
      </Section>
    </div>
  );
}

/**
 * The searchable multi-select: a name search (Enter, or a pause in typing) or a delivery
 * date fills the list; tapping a name adds or removes it. Clear restores the search list.
 */
function CustomerPicker({
  chosen,
  onToggle,
  onAddAll,
}: {
  chosen: Map<number, Pickable>;
  onToggle: (c: Pickable) => void;
  onAddAll: (list: Pickable[]) => void;
}) {
  const [term, setTerm] = useState("");
  const [found, setFound] = useState<Pickable[] | null>(null);
  const [date, setDate] = useState("");
  const [byDate, setByDate] = useState<Pickable[] | null>(null);
  const seq = useRef(0);
  // A failed search or date list keeps what was shown and says so (issue 25).
  const [failed, setFailed] = useState<string | null>(null);
  const [retries, setRetries] = useState(0);

  const search = useCallback(async (t: string) => {
    const mine = ++seq.current;
    setFailed(null);
    if (!t) return setFound(null);
    try {
      const rows = await fetchList<Pickable>("/customers/", { term: t, limit: SEARCH_LIMIT });
      if (mine === seq.current) setFound(rows);
    } catch (e) {
      if (mine === seq.current) setFailed(loadFailure(e));
    }
  }, []);
  // A moment after the last key; Enter searches at once and cancels the pending one, so the
  // same search never runs twice and a late duplicate cannot replace what Enter's answer showed.
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    pending.current = setTimeout(() => void search(term.trim()), 300);
    return () => clearTimeout(pending.current);
  }, [term, search]);
  const searchNow = () => {
    clearTimeout(pending.current);
    void search(term.trim());
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: `retries` is Retry's way to load the date again
  useEffect(() => {
    setByDate(null);
    setFailed(null);
    if (!date) return;
    // A date changed again before the answer came: that answer is not this date's list.
    let current = true;
    void fetchList<Pickable>(`/customers/byDeliveryDate/${date}`).then(
      (rows) => current && setByDate(rows),
      (e) => current && setFailed(loadFailure(e)),
    );
    return () => {
      current = false;
    };
  }, [date, retries]);

  const list = date ? byDate : found;
  const heading = failed
    ? "Not loaded"
    : date
      ? byDate === null
        ? "Loading…"
        : `${byDate.length} with a delivery on ${displayDate(date)}`
      : found === null
        ? "Type a name and press Enter"
        : `${found.length}${found.length === SEARCH_LIMIT ? "+" : ""} found${found.length === SEARCH_LIMIT ? " (the first 20; type more of the name)" : ""}`;

  return (
    <div className="msg-picker">
      <div className="msg-filters">
        <Field label="Search customers">
          <input
            type="search"
            value={term}
            placeholder="Full name"
            disabled={!!date}
            onChange={(e) => setTerm(e.target.value)}
            onKeyDown={(e) => e.key === "Enter" && searchNow()}
          />
        </Field>
        <Field label="Delivery date">
          <DateField label="Delivery date" value={date} onChange={setDate} />
        </Field>
        <button type="button" className="btn" disabled={!date} onClick={() => setDate("")}>
          Clear
        </button>
      </div>
      <fieldset className="msg-found">
        <legend>
          <small className="muted" data-testid="picker-count">
            {heading}
          </small>{" "}
          {list && list.length > 1 && (
            <button type="button" className="btn btn-small" onClick={() => onAddAll(list)}>
              Add all {list.length}
            </button>
          )}
        </legend>
        <LoadFailed what="customers" error={failed} onRetry={() => (date ? setRetries((n) => n + 1) : void search(term.trim()))} />
        {list && list.length > 0 ? (
          <ChipToggles
            label="Customers"
            items={list.map((c) => ({ id: c.id, name: chipName(c) }))}
            selected={new Set(list.filter((c) => chosen.has(c.id)).map((c) => c.id))}
            onToggle={(id) => onToggle(list.find((c) => c.id === id)!)}
          />
        ) : (
          list && <p className="muted">{date ? "No customer has a delivery that day." : "No customer matches."}</p>
        )}
      </fieldset>
    </div>
  );
}

/** The batch's progress: counts per state, live over the events stream (and polled, see POLL_MS). */
function BatchProgress({ batch }: { batch: SendResult }) {
  const [counts, setCounts] = useState<BatchCounts | null>(null);
  const [showRows, setShowRows] = useState(false);
  const id = batch.batch_id;
  // Sent from the bottom of a long list: the answer is brought into view.
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    if (id) box.current?.scrollIntoView?.({ block: "start" });
  }, [id]);
  const load = useCallback(() => batchCounts(id).then(setCounts, () => {}), [id]);
  useEffect(() => {
    setCounts(null);
    void load();
  }, [load]);

  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const live = useMessageEvents(
    (e) => e.batch_id === id,
    () => {
      // A burst of events reads the counts once.
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void load(), 250);
    },
  );
  useEffect(() => () => clearTimeout(timer.current), []);

  const waiting = counts ? counts.queued + counts.sending : batch.queued;
  useEffect(() => {
    if (waiting === 0) return;
    const t = setInterval(() => void load(), live ? POLL_MS.live : POLL_MS.down);
    return () => clearInterval(t);
  }, [live, waiting, load]);

  const skipped = batch.skipped.no_messages + batch.skipped.no_address;
  const done = counts ? counts.sent + counts.failed + counts.unknown : 0;
  const why = [
    batch.skipped.no_messages && `${batch.skipped.no_messages} asked for no messages`,
    batch.skipped.no_address && `${batch.skipped.no_address} ${batch.skipped.no_address === 1 ? "has" : "have"} no mobile or e-mail`,
  ].filter(Boolean);
  return (
    <section ref={box} className="card section msg-progress" aria-label="Progress" data-testid="batch-progress">
      <div className="section-head">
        <h2>Send #{id}</h2>
        <span className="muted">{waiting > 0 ? (live ? "on its way (live)" : "on its way") : "finished"}</span>
      </div>
      {batch.queued > 0 && <progress max={batch.queued} value={done} aria-label="Sent so far" />}
      <dl className="msg-counts">
        <Count label="Queued" value={batch.queued} testid="count-queued" />
        <Count label="Waiting" value={waiting} testid="count-waiting" />
        <Count label="Sent" value={counts?.sent ?? 0} testid="count-sent" />
        <Count label="Failed" value={counts?.failed ?? 0} testid="count-failed" />
        {(counts?.unknown ?? 0) > 0 && <Count label="Unknown" value={counts!.unknown} testid="count-unknown" />}
        <Count label="Skipped" value={skipped} testid="count-skipped" />
      </dl>
      {why.length > 0 && <p className="muted">Skipped: {why.join("; ")}.</p>}
      {batch.queued === 0 && <p className="muted">Nothing was queued: no chosen customer can be messaged.</p>}
      {batch.queued > 0 && (
        <button type="button" className="btn btn-small" onClick={() => setShowRows(!showRows)}>
          {showRows ? "Hide the messages" : "Show the messages"}
        </button>
      )}
      {showRows && <MessageList query={{ batch_id: id }} title="Messages of this send" />}
    </section>
  );
}

function Count({ label, value, testid }: { label: string; value: number; testid: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testid}>{value}</dd>
    </div>
  );
}
