import { useSignals } from "@preact/signals-react/runtime";
import { type Approval, needsApproval, withApproval } from "../../components/approval";
import { useCallback, useEffect, useRef, useState } from "react";
import { CustomerTickets } from "../tickets/CustomerTickets";
import { Link, useLocation } from "wouter";
import { displayDate, euroFromEuros } from "../../../appliance/domain/format";
import { confirmDialog } from "../../components/dialog";
import { deleteRecord, failureMessage } from "../../components/records";
import { Field, Section, clamp100 } from "../../components/form";
import { ListView } from "../../components/ListView";
import { toast } from "../../components/toast";
import { api, ApiError, apiList } from "../../lib/api";
import { employee } from "../../lib/session";
import {
  type Address,
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

export const TITLES = ["Mr.", "Mrs.", "Ms.", "Profs.", "Ing.", "Dr."] as const;

export interface SimpleTicket {
  id: number;
  state: string;
  pickup_date: string | null;
  delivery_date: string | null;
  total: number;
  total_paid: number;
  agent_name: string;
}
export interface Customer {
  id: number;
  title: string;
  full_name: string;
  first_name?: string;
  last_name?: string;
  address_id: number | null;
  address?: Address | null;
  mobile: string;
  landline: string;
  email_address: string;
  date_of_birth: string | null;
  id_card: string;
  discount: number;
  occupation: string;
  comments: string;
  preferences?: number[];
  number_of_visits?: number;
  total_spent?: number;
  last_visit?: string | null;
  ticket_total?: number;
  outstanding_balance?: number;
  turnover_rank?: number;
  visit_rank?: number;
  simple_tickets?: SimpleTicket[];
}
interface Preference {
  id: number;
  name: string;
}

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
  const seq = useRef(0);
  const busy = useRef(false);

  const fetchPage = useCallback(
    async (t: string, offset: number) => {
      const mine = ++seq.current;
      busy.current = true;
      const found = await apiList<Customer>("/customers/", { term: t, limit: batch, offset });
      busy.current = false;
      if (mine !== seq.current) return;
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
        <span className="muted people-hint">{typed ? (searched === typed ? `${rows.length}${more ? "+" : ""} found` : "Searching…") : "Type a name, phone, ID card or e-mail"}</span>
        <Link href="/customers/0" className="btn btn-primary">
          + New customer
        </Link>
      </div>
      <CustomerSearch term={term} setTerm={setTerm} rows={rows} phone={phone} typed={typed} searched={searched} />
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
}: {
  term: string;
  setTerm: (t: string) => void;
  rows: Customer[];
  phone: boolean;
  typed: string;
  searched: string;
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

const blank: Customer = {
  id: 0,
  title: "",
  full_name: "",
  address_id: null,
  mobile: "",
  landline: "",
  email_address: "",
  date_of_birth: null,
  id_card: "",
  discount: 0,
  occupation: "",
  comments: "",
  preferences: [],
};

/** Spec §5: the fields checked for an existing customer on blur, with their labels. */
const LOOKUP: Record<"mobile" | "landline" | "id_card" | "email_address", string> = { mobile: "mobile", landline: "landline", id_card: "id_card", email_address: "email_address" };

const rank = (n: number | undefined) => (n === undefined || n < 0 ? "N/A" : String(n));

export function CustomerDetail({ params }: { params: Params }) {
  useSignals();
  const id = idOf(params);
  const [, navigate] = useLocation();
  const [c, setC] = useState<Customer>(blank);
  const [address, setAddress] = useState<AddressDraft>(blankAddress);
  const [prefs, setPrefs] = useState<Set<number>>(new Set());
  const [allPrefs, setAllPrefs] = useState<Preference[]>([]);
  const [loaded, setLoaded] = useState(id === 0);
  const [saving, setSaving] = useState(false);
  const role = employee.value?.role;
  const isAdmin = role === "admin";

  useEffect(() => void apiList<Preference>("/preferences/").then(setAllPrefs), []);
  const current = useRef(id);
  current.current = id;
  /** Reads the customer (with statistics and the last tickets) into the form. */
  const load = useCallback(async (cid: number) => {
    const r = await api<Customer>("GET", `/customers/${cid}`, { query: { simple: true } });
    if (current.current !== cid) return;
    setC({ ...blank, ...r });
    setAddress(draftOf(r.address));
    setPrefs(new Set(r.preferences ?? []));
    setLoaded(true);
  }, []);
  useEffect(() => {
    setLoaded(id === 0);
    if (!id) {
      setC(blank);
      setAddress(blankAddress);
      setPrefs(new Set());
      return;
    }
    load(id).catch(() => {});
  }, [id, load]);

  const set = (patch: Partial<Customer>) => setC((prev) => ({ ...prev, ...patch }));

  /** Spec §5 existence check: skipped once a customer is loaded or for a blank value. */
  async function checkExists(field: keyof typeof LOOKUP) {
    const value = String(c[field] ?? "").trim();
    if (id || c.id || !value) return;
    try {
      const found = await api<Customer>("GET", "/customers/", { query: { [field]: value }, quiet: true });
      if (!found?.id) return;
      const load = await confirmDialog({ title: "Customer Exists", message: `A Customer with matching "${LOOKUP[field]}" field already exists, Load Customer?` });
      if (load) navigate(`/customers/${found.id}`);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return;
      toast("Something is wrong", "danger");
    }
  }

  async function save() {
    if (!c.full_name.trim()) return toast("Full name is required", "warning");
    if (addressTouched(address) && !addressValid(address)) return toast("Invalid Address", "danger");
    const isNew = id === 0;
    setSaving(true);
    try {
      let addressId = c.address_id;
      if (addressValid(address)) {
        const body = { number: address.number, name: address.name, locality_id: address.locality_id, street_id: address.street_id };
        // An address the shop may not see (linked before addresses had owners) is not shown: a new one replaces it.
        const a = addressId && c.address ? await api<Address>("PUT", `/address/${addressId}`, { body, quiet: true }) : await api<Address>("POST", "/address/", { body, quiet: true });
        addressId = a.id;
      }
      const body = {
        title: c.title,
        full_name: c.full_name.trim(),
        address_id: addressId ?? null,
        mobile: c.mobile,
        landline: c.landline,
        email_address: c.email_address.trim(),
        date_of_birth: c.date_of_birth || null,
        id_card: c.id_card.trim(),
        discount: clamp100(String(c.discount)),
        occupation: c.occupation,
        comments: c.comments,
      };
      const send = (approval?: Approval) => {
        const b = approval ? { ...body, approval } : body;
        return isNew ? api<Customer>("POST", "/customers/", { body: b, quiet: true }) : api<Customer>("PUT", `/customers/${id}`, { body: b, quiet: true });
      };
      // A discount above the limit needs a manager: their PIN is asked for on this tablet.
      const saved = await send().catch((e) => (needsApproval(e) ? withApproval(send) : Promise.reject(e)));
      if (!saved) return; // the manager dialog was cancelled: nothing saved
      await api("POST", "/customerPreferences/bulk", { body: { customer_id: saved.id, preferences: [...prefs] }, quiet: true });
      toast("Information Saved");
      if (isNew) navigate(`/customers/${saved.id}`, { replace: true });
      else await load(id).catch(() => {});
    } catch (e) {
      // Spec §8: a failed create shows the server's message, other failures a generic one.
      toast(failureMessage(e, isNew), "danger");
    } finally {
      setSaving(false);
    }
  }

  async function remove() {
    const done = await deleteRecord({ path: "/customers/", id, okText: "Customer Removed", serverMessage: true, confirm: { title: "Remove customer", message: `Remove ${c.full_name}? This cannot be undone.` } });
    if (done) navigate("/customers");
  }

  const togglePref = (pid: number) =>
    setPrefs((prev) => {
      const next = new Set(prev);
      next.has(pid) ? next.delete(pid) : next.add(pid);
      return next;
    });

  if (!loaded) return <p className="muted">Loading customer…</p>;
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
            <input name="date_of_birth" type="date" value={c.date_of_birth ?? ""} onChange={(e) => set({ date_of_birth: e.target.value || null })} />
          </Field>
          <Field label="ID card">
            <input name="id_card" value={c.id_card} autoComplete="off" onChange={(e) => set({ id_card: e.target.value.toUpperCase() })} onBlur={() => checkExists("id_card")} />
          </Field>
          <Field label="Occupation">
            <input name="occupation" value={c.occupation} onChange={(e) => set({ occupation: e.target.value })} />
          </Field>
          <Field label="Discount %" hint="0 to 100">
            <input name="discount" type="number" inputMode="numeric" min={0} max={100} value={c.discount} onChange={(e) => set({ discount: clamp100(e.target.value) })} />
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
            <input name="email_address" type="email" autoComplete="off" value={c.email_address} onChange={(e) => set({ email_address: e.target.value })} onBlur={() => checkExists("email_address")} />
          </Field>
        </div>
      </Section>

      <Section title="Address">
        <AddressFields value={address} onChange={setAddress} />
      </Section>

      <Section title="Preferences">
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
    </div>
  );
}

