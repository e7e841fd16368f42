import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import { ROLES, type Role } from "../../../appliance/domain/people";
import { sumEuros } from "../../../appliance/domain/money";
import type { AgentListRow } from "../../../appliance/modules/agents/model";
import type { EmployeeDetail as Employee, Owing } from "../../../appliance/modules/employees/model";
import { Link, useLocation } from "wouter";
import { displayDate, euroFromEuros } from "../../../appliance/domain/format";
import { ROLE_LABEL } from "../../app/access";
import { confirmDialog } from "../../components/dialog";
import { failureMessage } from "../../components/records";
import { Field, Section, Toggle } from "../../components/form";
import { RecordList } from "../../components/RecordList";
import { toast } from "../../components/toast";
import { api, ApiError, fetchList } from "../../lib/api";
import { usePickList } from "../../lib/useList";
import { useRecord } from "../../lib/useRecord";
import { employee as me } from "../../lib/session";
import { ArchivedRow } from "./archived";
import { ChipToggles, idOf, type Params, PhoneInput, Stat, useLocalities } from "./fields";
import { fuzzySearch } from "../../lib/fuzzy";

/** Spec §5: employees are searched on first and last name, landline, mobile and role. */
const search = fuzzySearch<Employee>((e) => [e.full_name, e.landline, e.mobile, e.role, ROLE_LABEL[e.role]]);

export function EmployeesList() {
  return (
    <RecordList<Employee>
      path="/employees/"
      noun="employee"
      newHref="/employees/0"
      search={search}
      render={(e) => (
        <Link href={`/employees/${e.id}`} className="row-link">
          <span className="row-main">
            <strong>{e.full_name}</strong>
            <span className="muted people-sub">{[e.mobile || "No mobile", e.agent?.name].filter(Boolean).join(" · ")}</span>
          </span>
          <span className="people-row-meta">
            {!e.enable_login && <span className="badge badge-hidden">no login</span>}
            {e.hq && <span className="badge">HQ</span>}
            <span className="badge">{ROLE_LABEL[e.role]}</span>
            <span className="people-chevron" aria-hidden="true">
              ›
            </span>
          </span>
        </Link>
      )}
      renderArchived={(e, reload) => (
        <ArchivedRow
          name={e.full_name}
          sub={[ROLE_LABEL[e.role], e.agent?.name].filter(Boolean).join(" · ")}
          archivedAt={e.archived_at}
          restorePath={`/employees/restore/${e.id}`}
          noun="employee"
          note="Their old PIN was freed: set a new one on their record before they log in."
          onRestored={reload}
        />
      )}
    />
  );
}

const blank: Employee = {
  id: 0,
  agent_id: 0,
  full_name: "",
  mobile: "",
  landline: "",
  role: "employee",
  pin_legacy: false,
  enable_login: true,
  hq: false,
  localities: "",
  archived_at: null,
  accumulated: 0,
  pending: 0,
};
const localitySet = (s: string) => new Set(s.split(",").filter(Boolean).map(Number));

export function EmployeeDetail({ params }: { params: Params }) {
  useSignals();
  const id = idOf(params);
  const [, navigate] = useLocation();
  // A new employee joins the caller's agent unless HQ chooses another.
  const {
    record: e,
    set,
    loaded,
    error,
    saving,
    reload,
    save: saveRecord,
    remove: removeRecord,
  } = useRecord<Employee>({ path: "/employees/", id, blank: { ...blank, agent_id: me.value?.agent_id ?? 0 } });
  const [pin, setPin] = useState("");
  const agentList = usePickList(() => fetchList<AgentListRow>("/agents/"), "the agents");
  const agents = agentList.items;
  const localityList = useLocalities();
  const localities = localityList.items;
  // Only head-quarters sees other agents, so only it may place staff with one (and grant HQ).
  const hqCaller = agents.length > 1 || agents.some((a) => a.is_hq);

  useEffect(() => setPin(""), [id]);

  async function save() {
    const isNew = id === 0;
    if (!e.full_name.trim()) return toast("Full name is required", "warning");
    if (pin && !/^\d{4,8}$/.test(pin)) return toast("The PIN is 4 to 8 digits", "warning");
    if (isNew && !pin) return toast("Choose a PIN for the new employee", "warning");
    const body = {
      full_name: e.full_name.trim(),
      mobile: e.mobile,
      landline: e.landline,
      role: e.role,
      enable_login: e.enable_login,
      ...(hqCaller ? { hq: e.hq } : {}),
      ...(pin ? { pin } : {}),
      ...(isNew ? { localities: e.localities, ...(hqCaller && e.agent_id ? { agent_id: e.agent_id } : {}) } : {}),
    };
    const saved = await saveRecord<Employee>(body, {
      okText: isNew ? "Employee Created" : "Employee Updated",
      // Spec §8: create failures show the server's message; a PIN clash (409), a refused
      // change (422) or a PIN lock (429: clashes count as wrong PINs) too, since the user can
      // act on it; others a generic one.
      failText: (err, fresh) => (err instanceof ApiError && err.status === 429 ? err.message : failureMessage(err, fresh)),
    });
    if (!saved) return;
    setPin("");
    if (isNew) navigate(`/employees/${saved.id}`, { replace: true });
    else await reload();
  }

  async function remove() {
    const done = await removeRecord("Employee Removed", {
      serverMessage: true,
      confirm: {
        title: "Remove employee",
        message: `Remove ${e.full_name}? Someone who has worked is archived instead: logged out, PIN freed, their name kept on tickets and logs; "Show archived" on the list restores them.`,
      },
    });
    if (done) navigate("/employees");
  }

  /** Spec §4: tapping a locality toggles it (present → removed); saved at once for a saved employee. */
  async function toggleLocality(lid: number) {
    if (!id) {
      const have = localitySet(e.localities);
      have.has(lid) ? have.delete(lid) : have.add(lid);
      return set({ localities: [...have].join(",") });
    }
    try {
      const r = await api<Employee>("PUT", `/employees/localities/${id}`, { body: [lid], quiet: true });
      set({ localities: r.localities });
    } catch {
      toast("Something went wrong", "danger");
    }
  }

  async function clearOwings(close: boolean) {
    const ok = await confirmDialog({
      title: close ? "Clear & Close owings" : "Clear owings",
      message: close ? "Mark every open owing as paid and start a new period (accumulated back to 0)?" : "Mark every open owing as paid?",
    });
    if (!ok) return;
    try {
      await api("PUT", `/employees/clearOwings/${id}`, { query: close ? { close: true } : undefined, quiet: true });
      toast(close ? "Owings cleared and closed" : "Owings cleared");
      await reload();
    } catch {
      toast("Something went wrong", "danger");
    }
  }

  if (!loaded) return <p className="muted">{error ?? "Loading employee…"}</p>;
  const chosen = localitySet(e.localities);
  const hasOwings = id > 0 && (e.role === "employee" || e.role === "driver");
  const isMe = id > 0 && me.value?.employee_id === id;

  return (
    <div className="stack people-detail">
      <div className="people-head">
        <div>
          <h2 className="people-name">{id ? e.full_name : "New employee"}</h2>
          {id > 0 && (
            <p className="muted people-sub">
              {ROLE_LABEL[e.role]}
              {e.agent ? ` · ${e.agent.name}` : ""}
            </p>
          )}
        </div>
      </div>

      <Section title="Contact">
        <div className="grid-2">
          <Field label="Full name">
            <input name="full_name" value={e.full_name} autoComplete="off" onChange={(ev) => set({ full_name: ev.target.value })} />
          </Field>
          <Field label="Mobile">
            <PhoneInput name="mobile" value={e.mobile} onChange={(mobile) => set({ mobile })} />
          </Field>
          <Field label="Landline">
            <PhoneInput name="landline" value={e.landline} onChange={(landline) => set({ landline })} />
          </Field>
        </div>
      </Section>

      <Section title="Permissions">
        {agentList.failed}
        <div className="grid-2">
          {hqCaller && (
            <Field label="Agent" hint={id ? "An employee stays with their agent" : undefined}>
              <select name="agent_id" value={e.agent_id || ""} disabled={id > 0} onChange={(ev) => set({ agent_id: Number(ev.target.value) || 0 })}>
                {agents.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            </Field>
          )}
          <Field label="Role">
            <select name="role" value={e.role} disabled={isMe} onChange={(ev) => set({ role: ev.target.value as Role })}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABEL[r]}
                </option>
              ))}
            </select>
          </Field>
          <Field label="PIN" hint={id ? "4 to 8 digits; leave empty to keep the current PIN" : "4 to 8 digits; unique within the agent"}>
            <input
              name="pin"
              type="password"
              inputMode="numeric"
              pattern="[0-9]*"
              autoComplete="new-password"
              maxLength={8}
              value={pin}
              className="people-pin"
              onChange={(ev) => setPin(ev.target.value.replace(/\D/g, ""))}
            />
          </Field>
        </div>
        <div className="people-toggles">
          <Toggle label="Enable login" checked={e.enable_login} onChange={(enable_login) => !isMe && set({ enable_login })} />
          {hqCaller && <Toggle label="Head-quarters (HQ)" checked={e.hq} onChange={(hq) => set({ hq })} />}
        </div>
      </Section>

      <Section title="Localities" actions={<span className="muted">{chosen.size ? `${chosen.size} chosen` : "None chosen"}</span>}>
        <p className="muted people-note">Tap a locality to add or remove it{id ? "; changes are saved at once." : "."}</p>
        {localityList.failed}
        <ChipToggles label="Localities" items={localities} selected={chosen} onToggle={toggleLocality} />
      </Section>

      {hasOwings && <Owings e={e} onClear={clearOwings} />}

      <div className="form-buttons people-actions">
        {id > 0 && !isMe && (
          <button type="button" className="btn btn-danger" onClick={remove}>
            Delete
          </button>
        )}
        <button type="button" className="btn btn-primary" onClick={save} disabled={saving}>
          Save
        </button>
      </div>
    </div>
  );
}

/** Spec §3 and §6: owings of employee and driver records, the amount received per owing. */
function Owings({ e, onClear }: { e: Employee; onClear: (close: boolean) => void }) {
  const owings = e.employee_owings ?? [];
  const open = owings.filter((o) => o.state === "OPEN");
  const sum = (list: Owing[]) => sumEuros(list.map((o) => o.received));
  return (
    <Section
      title="Owings"
      actions={
        <div className="toolbar">
          <button type="button" className="btn" onClick={() => onClear(false)}>
            Clear
          </button>
          <button type="button" className="btn" onClick={() => onClear(true)}>
            Clear &amp; Close
          </button>
        </div>
      }
    >
      <div className="people-totals" aria-label="Owing totals">
        <Stat label="Pending" value={euroFromEuros(e.pending)} />
        <Stat label="Accumulated" value={euroFromEuros(e.accumulated)} />
        <Stat label="Open owings" value={open.length} />
        <Stat label="Open total" value={euroFromEuros(sum(open))} />
      </div>
      {owings.length === 0 ? (
        <p className="muted">No owings.</p>
      ) : (
        <div className="people-table-wrap">
          <table className="people-table" aria-label="Owings">
            <thead>
              <tr>
                <th>Ticket</th>
                <th>Paid on</th>
                <th className="num">Amount</th>
                <th className="num">%</th>
                <th className="num">Received</th>
                <th>State</th>
              </tr>
            </thead>
            <tbody>
              {owings.map((o) => (
                <tr key={o.id}>
                  <td>
                    <Link href={`/tickets/${o.ticket_id}`}>#{o.ticket_id}</Link>
                  </td>
                  <td>{displayDate(o.payment_date)}</td>
                  <td className="num price">{euroFromEuros(o.amount)}</td>
                  <td className="num">{o.percentage}</td>
                  <td className="num price">{euroFromEuros(o.received)}</td>
                  <td>
                    <span className={`badge${o.state === "OPEN" ? " people-open" : " people-paid"}`}>{o.state}</span>
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <td colSpan={4}>Total received</td>
                <td className="num price">{euroFromEuros(sum(owings))}</td>
                <td />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </Section>
  );
}
