import { useSignals } from "@preact/signals-react/runtime";
import { DateField } from "../../components/DateField";
import { type Approval, needsApproval, withApproval } from "../../components/approval";
import { useCallback, useEffect, useRef, useState } from "react";
import { TITLES } from "../../../appliance/domain/people";
import type { Customer, CustomerDetail as CustomerRecord, CustomerSave } from "../../../appliance/modules/customers/model";
import type { Preference } from "../../../appliance/modules/places/model";
import { CustomerTickets } from "../tickets/CustomerTickets";
import { MessageList } from "../messaging/MessageList";
import { CustomerDeposits } from "./Deposits";
import { Link, useLocation } from "wouter";
import { displayDate, euroFromEuros } from "../../../appliance/domain/format";
import { confirmDialog } from "../../components/dialog";
import { Field, Section, Toggle, clamp100 } from "../../components/form";
import { ListView } from "../../components/ListView";
import { toast } from "../../components/toast";
import { api, ApiError, fetchList, loadFailure } from "../../lib/api";
import { usePickList } from "../../lib/useList";
import { useRecord } from "../../lib/useRecord";
import { employee } from "../../lib/session";
import {
  type AddressDraft,
  AddressFields,
  addressTouched,
  addressValid,
  blankAddress,
  ChipToggles,
  draftOf,
  idOf,
  type Params,
  PhoneInput,
  Stat,
  useIsPhone,
} from "./fields";

// ---------------------------------------------------------------------------------------------
// List
// ---------------------------------------------------------------------------------------------

/** Desktop pages through what one fetch brings (4 pages of 50); a phone scrolls in 50s. */
const DESKTOP_BATCH = 200;
const PHONE_BATCH = 50;
const PAGE = 50;

/** Spec §2: search open by default, the list empty until a term is typed. */
export function CustomersList() {
  const phone = useIsPhone();
  const batch = phone ? PHONE_BATCH : DESKTOP_BATCH;
  const [term, setTerm] = useState("");
  const [rows, setRows] = useState<Customer[]>([]);
  const [more, setMore] = useState(false);
  const [searched, setSearched] = useState("");
  // A failed search keeps the rows shown before and says so (issue 25): never "0 found".
  const [failed, setFailed] = useState<{ term: string; offset: number; message: string } | null>(null);
  const seq = useRef(0);
  const busy = useRef(false);

  const fetchPage = useCallback(
    async (t: string, offset: number) => {
      const mine = ++seq.current;
      busy.current = true;
      let found: Customer[];
      try {
        found = await fetchList<Customer>("/customers/", { term: t, limit: batch, offset });
      } catch (e) {
        busy.current = false;
        if (mine === seq.current) setFailed({ term: t, offset, message: loadFailure(e) });
        return;
      } finally {
        busy.current = false;
      }
      if (mine !== seq.current) return;
      setFailed(null);
      setRows((prev) => (offset ? [...prev, ...found.filter((f) => !prev.some((p) => p.id === f.id))] : found));
      setMore(found.length === batch);
      setSearched(t);
    },
    [batch],
  );

  // Search as the user types, a moment after the last key.
  useEffect(() => {
    const t = term.trim();
    if (!t) {
      seq.current++;
      setFailed(null);
      setRows([]);
      setMore(false);
      setSearched("");
      return;
    }
    const timer = setTimeout(() => fetchPage(t, 0), 250);
    return () => clearTimeout(timer);
  }, [term, fetchPage]);

  // Phones: the next 50 load when the end of the list scrolls into view.
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!phone || !more || !sentinel.current) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !busy.current) fetchPage(searched, rows.length);
    });
    io.observe(sentinel.current);
    return () => io.disconnect();
  }, [phone, more, rows.length, searched, fetchPage]);

  const typed = term.trim();
  return (
    <div className="stack people-list">
      <div className="toolbar">
        <span className="muted people-hint">
          {typed
            ? failed?.term === typed
              ? "Search failed"
              : searched === typed
                ? `${rows.length}${more ? "+" : ""} found`
                : "Searching…"
            : "Type a name, phone, ID card or e-mail"}
        </span>
        <Link href="/customers/0" className="btn btn-primary">
          + New customer
        </Link>
      </div>
      <CustomerSearch
        term={term}
        setTerm={setTerm}
        rows={rows}
        phone={phone}
        typed={typed}
        searched={searched}
        error={failed?.message ?? null}
        onRetry={() => failed && fetchPage(failed.term, failed.offset)}
      />
      {more && rows.length > 0 && (
        <div ref={sentinel} className="people-more">
          <button type="button" className="btn" onClick={() => fetchPage(searched, rows.length)}>
            Load more
          </button>
        </div>
      )}
    </div>
  );
}

function CustomerSearch({
  term,
  setTerm,
  rows,
  phone,
  typed,
  searched,
  error,
  onRetry,
}: {
  term: string;
  setTerm: (t: string) => void;
  rows: Customer[];
  phone: boolean;
  typed: string;
  searched: string;
  error: string | null;
  onRetry: () => void;
}) {
  // The search box is open and focused on arrival (spec §2).
  useEffect(() => {
    (document.querySelector(".people-list input.search") as HTMLInputElement | null)?.focus();
  }, []);
  return (
    <ListView
      items={rows}
      keyOf={(c) => c.id}
      query={term}
      onQuery={setTerm}
      pageSize={phone ? Math.max(rows.length, 1) : PAGE}
      placeholder="Search customers"
      error={error}
      onRetry={onRetry}
      what="customers"
      empty={typed ? (searched === typed ? "No customer matches" : "Searching…") : "Start typing to find a customer"}
      render={(c) => (
        <Link href={`/customers/${c.id}`} className="row-link">
          <span className="row-main">
            <strong>
              {c.title ? `${c.title} ` : ""}
              {c.full_name}
            </strong>
            <span className="muted people-sub">{[c.mobile, c.landline, c.email_address, c.id_card].filter(Boolean).join(" · ") || "No contact details"}</span>
          </span>
          <span className="people-chevron" aria-hidden="true">
            ›
          </span>
        </Link>
      )}
    />
  );
}

// ---------------------------------------------------------------------------------------------
// Detail
// ---------------------------------------------------------------------------------------------

const blank: CustomerRecord = {
  id: 0,
  agent_id: 0,
  title: "",
  full_name: "",
  first_name: "",
  last_name: "",
  address_id: null,
  address: null,
  mobile: "",
  landline: "",
  email_address: "",
  date_of_birth: null,
  id_card: "",
  discount: 0,
  occupation: "",
  comments: "",
  no_messages: false,
  created_at: "",
  preferences: [],
  ticket_total: 0,
};

/** Spec §5: the fields checked for an existing customer on blur, with their labels. */
const LOOKUP: Record<"mobile" | "landline" | "id_card" | "email_address", string> = {
  mobile: "mobile",
  landline: "landline",
  id_card: "id_card",
  email_address: "email_address",
};

const rank = (n: number | undefined) => (n === undefined || n < 0 ? "N/A" : String(n));

export function CustomerDetail({ params }: { params: Params }) {
  useSignals();
  const id = idOf(params);
  const [, navigate] = useLocation();
  const [address, setAddress] = useState<AddressDraft>(blankAddress);
  const [prefs, setPrefs] = useState<Set<number>>(new Set());
  const prefList = usePickList(() => fetchList<Preference>("/preferences/"), "the preferences");
  const allPrefs = prefList.items;
  // The customer with its statistics and last tickets; the address and preferences are edited beside it.
  const {
    record: c,
    set,
    loaded,
    error,
    saving,
    reload,
    save: saveRecord,
    remove: removeRecord,
  } = useRecord<CustomerRecord>({
    path: "/customers/",
    id,
    blank,
    query: { simple: true },
    onLoad: (r) => {
      setAddress(draftOf(r?.address));
      setPrefs(new Set(r?.preferences ?? []));
    },
  });
  const role = employee.value?.role;
  const isAdmin = role === "admin";

  /** Spec §5 existence check: skipped once a customer is loaded or for a blank value. */
  async function checkExists(field: keyof typeof LOOKUP) {
    const value = String(c[field] ?? "").trim();
    if (id || c.id || !value) return;
    try {
      const found = await api<Customer>("GET", "/customers/", { query: { [field]: value }, quiet: true });
      if (!found?.id) return;
      const load = await confirmDialog({
        title: "Customer Exists",
        message: `A Customer with matching "${LOOKUP[field]}" field already exists, Load Customer?`,
      });
      if (load) navigate(`/customers/${found.id}`);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return;
      toast("Something is wrong", "danger");
    }
  }

  /** One call saves the customer, its address and its preferences, in one transaction on the box. */
  async function save() {
    if (!c.full_name.trim()) return toast("Full name is required", "warning");
    if (addressTouched(address) && !addressValid(address)) return toast("Invalid Address", "danger");
    const isNew = id === 0;
    const body: CustomerSave = {
      title: c.title as CustomerSave["title"],
      full_name: c.full_name.trim(),
      // A valid address is saved with the customer (its own one edited, or a new one when it has
      // none the shop may see); otherwise the reference it has is kept.
      ...(addressValid(address)
        ? { address: { number: address.number, name: address.name, locality_id: address.locality_id, street_id: address.street_id } }
        : { address_id: c.address_id ?? null }),
      mobile: c.mobile,
      landline: c.landline,
      email_address: c.email_address.trim(),
      date_of_birth: c.date_of_birth || null,
      id_card: c.id_card.trim(),
      discount: clamp100(String(c.discount)),
      occupation: c.occupation,
      comments: c.comments,
      no_messages: c.no_messages,
      preferences: [...prefs],
    };
    const send = (approval?: Approval) => {
      const b = approval ? { ...body, approval } : body;
      return isNew ? api<Customer>("POST", "/customers/", { body: b, quiet: true }) : api<Customer>("PUT", `/customers/${id}`, { body: b, quiet: true });
    };
    // A discount above the limit needs a manager: their PIN is asked for on this tablet (cancelled: nothing saved).
    const saved = await saveRecord<Customer>(body, { send: () => send().catch((e) => (needsApproval(e) ? withApproval(send) : Promise.reject(e))) });
    if (!saved) return;
    if (isNew) navigate(`/customers/${saved.id}`, { replace: true });
    else await reload();
  }

  async function remove() {
    const done = await removeRecord("Customer Removed", {
      serverMessage: true,
      confirm: { title: "Remove customer", message: `Remove ${c.full_name}? This cannot be undone.` },
    });
    if (done) navigate("/customers");
  }

  const togglePref = (pid: number) =>
    setPrefs((prev) => {
      const next = new Set(prev);
      next.has(pid) ? next.delete(pid) : next.add(pid);
      return next;
    });

  if (!loaded) return <p className="muted">{error ?? "Loading customer…"}</p>;
  const canDelete = id > 0 && (c.ticket_total ?? 0) <= 0 && (role === "admin" || role === "manager");

  return (
    <div className="stack people-detail">
      <div className="people-head">
        <div>
          <h2 className="people-name">{id ? `${c.title ? `${c.title} ` : ""}${c.full_name}` : "New customer"}</h2>
          {id > 0 && c.address && <p className="muted people-sub">{c.address.line}</p>}
        </div>
        {id > 0 && (
          <Link href={`/customers/${id}/new-ticket/0`} className="btn btn-primary">
            + New Ticket
          </Link>
        )}
      </div>

      {isAdmin && id > 0 && (
        <section className="card people-stats" aria-label="Statistics">
          <Stat label="Visits" value={c.number_of_visits ?? 0} />
          <Stat label="Total spent" value={euroFromEuros(c.total_spent ?? 0)} />
          <Stat label="Last visit" value={displayDate(c.last_visit)} />
          <Stat label="Ticket total" value={euroFromEuros(c.ticket_total ?? 0)} />
          <Stat label="Outstanding" value={euroFromEuros(c.outstanding_balance ?? 0)} />
          <Stat label="Turnover rank" value={rank(c.turnover_rank)} />
          <Stat label="Visit rank" value={rank(c.visit_rank)} />
        </section>
      )}

      {id > 0 && <CustomerDeposits customer={id} mobile={c.mobile} />}

      <Section title="Personal details">
        <div className="people-grid">
          <Field label="Title">
            <select name="title" value={c.title} onChange={(e) => set({ title: e.target.value })}>
              <option value="">—</option>
              {TITLES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Full name" hint="First name, a space, then the surname">
            <input name="full_name" value={c.full_name} autoComplete="off" onChange={(e) => set({ full_name: e.target.value })} />
          </Field>
          <Field label="Date of birth">
            <DateField name="date_of_birth" label="Date of birth" value={c.date_of_birth ?? ""} onChange={(d) => set({ date_of_birth: d || null })} />
          </Field>
          <Field label="ID card">
            <input
              name="id_card"
              value={c.id_card}
              autoComplete="off"
              onChange={(e) => set({ id_card: e.target.value.toUpperCase() })}
              onBlur={() => checkExists("id_card")}
            />
          </Field>
          <Field label="Occupation">
            <input name="occupation" value={c.occupation} onChange={(e) => set({ occupation: e.target.value })} />
          </Field>
          <Field label="Discount %" hint="0 to 100">
            <input
              name="discount"
              type="number"
              inputMode="numeric"
              min={0}
              max={100}
              value={c.discount}
              onChange={(e) => set({ discount: clamp100(e.target.value) })}
            />
          </Field>
        </div>
      </Section>

      <Section title="Contact">
        <div className="grid-2">
          <Field label="Mobile">
            <PhoneInput name="mobile" value={c.mobile} onChange={(mobile) => set({ mobile })} onBlur={() => checkExists("mobile")} />
          </Field>
          <Field label="Landline">
            <PhoneInput name="landline" value={c.landline} onChange={(landline) => set({ landline })} onBlur={() => checkExists("landline")} />
          </Field>
          <Field label="E-mail">
            <input
              name="email_address"
              type="email"
              autoComplete="off"
              value={c.email_address}
              onChange={(e) => set({ email_address: e.target.value })}
              onBlur={() => checkExists("email_address")}
            />
          </Field>
        </div>
        <Toggle label="No messages (customer asked)" checked={c.no_messages} onChange={(no_messages) => set({ no_messages })} />
      </Section>

      <Section title="Address">
        <AddressFields value={address} onChange={setAddress} />
      </Section>

      <Section title="Preferences">
        {prefList.failed}
        <ChipToggles label="Preferences" items={allPrefs} selected={prefs} onToggle={togglePref} />
        <Field label="Comments">
          <textarea name="comments" rows={3} value={c.comments} onChange={(e) => set({ comments: e.target.value })} />
        </Field>
      </Section>

      <div className="form-buttons people-actions">
        {canDelete && (
          <button type="button" className="btn btn-danger" onClick={remove}>
            Delete
          </button>
        )}
        <button type="button" className="btn btn-primary" onClick={save} disabled={saving}>
          Save
        </button>
      </div>

      {id > 0 && <CustomerTickets customerId={id} />}
      {id > 0 && <MessageList query={{ customer_id: id }} />}
    </div>
  );
}
