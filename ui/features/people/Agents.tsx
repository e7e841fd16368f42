import { useEffect, useState } from "react";
import type { AgentDetail as Agent, AgentListRow } from "../../../appliance/modules/agents/model";
import { Link, useLocation } from "wouter";
import { Field, Section, Toggle, clamp100 } from "../../components/form";
import { RecordList } from "../../components/RecordList";
import { toast } from "../../components/toast";
import { useHqAgent } from "../../app/access";
import { api, ApiError } from "../../lib/api";
import { useRecord } from "../../lib/useRecord";
import { ArchivedRow } from "./archived";
import { fuzzySearch } from "../../lib/fuzzy";
import {
  type AddressDraft,
  AddressFields,
  addressTouched,
  addressValid,
  blankAddress,
  draftOf,
  generatePassword,
  idOf,
  type Params,
  PhoneInput,
} from "./fields";

/** Spec §5: agents are searched on name, landline, mobile and e-mail. */
const search = fuzzySearch<AgentListRow>((a) => [a.name, a.landline, a.mobile, a.email_address]);

/** Spec §2: the first 50 agents, searchable, with add. */
export function AgentsList() {
  // Only head quarters deletes (archives) and restores agents.
  const hq = useHqAgent();
  return (
    <RecordList<AgentListRow>
      path="/agents/"
      noun="agent"
      newHref="/agents/0"
      search={search}
      render={(a) => (
        <Link href={`/agents/${a.id}`} className="row-link">
          <span className="row-main">
            <strong>{a.name}</strong>
            <span className="muted people-sub">
              {a.user_name}
              {[a.landline, a.mobile].filter(Boolean).length ? ` · ${[a.landline, a.mobile].filter(Boolean).join(" · ")}` : ""}
            </span>
          </span>
          <span className="people-row-meta">
            {a.is_hq && <span className="badge">HQ</span>}
            {a.enabled === false && <span className="badge badge-hidden">disabled</span>}
            {a.locality && <span className="badge">{a.locality}</span>}
            <span className="people-chevron" aria-hidden="true">
              ›
            </span>
          </span>
        </Link>
      )}
      renderArchived={
        hq
          ? (a, reload) => (
              <ArchivedRow
                name={a.name}
                sub={a.user_name}
                archivedAt={a.archived_at}
                restorePath={`/agents/restore/${a.id}`}
                noun="agent"
                note="It is enabled again with its user name and password."
                onRestored={reload}
              />
            )
          : undefined
      }
    />
  );
}

const blank: Agent = {
  id: 0,
  name: "",
  type: "SHOP",
  user_name: "",
  landline: "",
  mobile: "",
  address_id: null,
  address: null,
  is_hq: false,
  commission: 0,
  contact_person: "",
  email_address: "",
  queens: false,
  detail: null,
  can_see_action: null,
  enabled: true,
  archived_at: null,
  password_set: false,
};

export function AgentDetail({ params }: { params: Params }) {
  const id = idOf(params);
  const [, navigate] = useLocation();
  const [address, setAddress] = useState<AddressDraft>(blankAddress);
  const {
    record: a,
    set,
    setRecord: setA,
    loaded,
    error,
    saving,
    save: saveRecord,
    remove: removeRecord,
  } = useRecord<Agent>({ path: "/agents/", id, blank, onLoad: (r) => setAddress(draftOf(r?.address)) });
  const [password, setPassword] = useState("");
  const [showPassword, setShowPassword] = useState(false);
  // Type, user name and commission are the terms head quarters sets; a shop's admin sees them.
  const terms = useHqAgent() ? undefined : "Set by head quarters";

  useEffect(() => setPassword(""), [id]);

  async function setAgentPassword(agentId: number) {
    try {
      await api("PUT", `/agents/password/${agentId}`, { body: { password, email_address: a.email_address.trim() }, quiet: true });
      toast("Password set");
      setPassword("");
      setShowPassword(false);
      return true;
    } catch (e) {
      toast(e instanceof ApiError && e.status === 422 ? e.message : "Something went wrong", "danger");
      return false;
    }
  }

  async function save() {
    const isNew = id === 0;
    if (!a.name.trim() || !a.user_name.trim()) return toast("Name and user name are required", "warning");
    // Spec §5: an agent's address needs both locality and street, or nothing is sent.
    if ((isNew || addressTouched(address)) && !addressValid(address)) return toast("Invalid Address", "danger");
    if (password && password.length < 8) return toast("The password needs at least 8 characters", "warning");
    const body = {
      name: a.name.trim(),
      type: a.type.trim() || "SHOP",
      user_name: a.user_name.trim(),
      landline: a.landline,
      mobile: a.mobile,
      commission: clamp100(String(a.commission)),
      contact_person: a.contact_person.trim(),
      email_address: a.email_address.trim(),
      ...(addressValid(address) ? { address } : {}),
      ...(a.is_hq ? {} : { enabled: a.enabled }),
    };
    const saved = await saveRecord(body, { okText: isNew ? "Agent Created" : "Agent Updated" });
    if (!saved) return;
    if (password) await setAgentPassword(saved.id);
    if (isNew) navigate(`/agents/${saved.id}`, { replace: true });
    else setA((prev) => ({ ...prev, ...saved }));
  }

  async function remove() {
    // An agent with records is archived instead (issue 22): kept, disabled, restorable from the list.
    const done = await removeRecord("Agent Removed", {
      confirm: {
        title: "Remove agent",
        message: `Remove ${a.name}? An agent with employees, customers or tickets is archived instead: disabled and logged out, its records kept; "Show archived" on the list restores it.`,
      },
    });
    if (done) navigate("/agents");
  }

  if (!loaded) return <p className="muted">{error ?? "Loading agent…"}</p>;
  return (
    <div className="stack people-detail">
      <div className="people-head">
        <div>
          <h2 className="people-name">{id ? a.name : "New agent"}</h2>
          {id > 0 && (
            <p className="muted people-sub">
              {a.is_hq ? "Head quarters · " : ""}
              {a.password_set ? "Password set" : "No password yet"}
            </p>
          )}
        </div>
      </div>

      <Section title="Business details">
        <div className="grid-2">
          <Field label="Business name">
            <input name="name" value={a.name} autoComplete="off" onChange={(e) => set({ name: e.target.value })} />
          </Field>
          <Field label="Type" hint={terms}>
            <input name="type" value={a.type} list="agent-types" autoComplete="off" readOnly={!!terms} onChange={(e) => set({ type: e.target.value })} />
          </Field>
          <Field label="User name" hint={terms ?? "Used with the password to log the shop in"}>
            <input
              name="user_name"
              value={a.user_name}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              readOnly={!!terms}
              onChange={(e) => set({ user_name: e.target.value })}
            />
          </Field>
          <Field label="Landline">
            <PhoneInput name="landline" value={a.landline} onChange={(landline) => set({ landline })} />
          </Field>
          {id > 0 && !a.is_hq && <Toggle label="Enabled (can log in)" checked={a.enabled} onChange={(enabled) => set({ enabled })} />}
        </div>
        <datalist id="agent-types">
          <option value="SHOP" />
          <option value="BRANCH" />
          <option value="PARTNER" />
        </datalist>
      </Section>

      <Section title="Business address">
        <AddressFields value={address} onChange={setAddress} />
      </Section>

      <Section title="Contact">
        <div className="grid-2">
          <Field label="Contact person">
            <input name="contact_person" value={a.contact_person} onChange={(e) => set({ contact_person: e.target.value })} />
          </Field>
          <Field label="Mobile">
            <PhoneInput name="mobile" value={a.mobile} onChange={(mobile) => set({ mobile })} />
          </Field>
          <Field label="E-mail">
            <input name="email_address" type="email" autoComplete="off" value={a.email_address} onChange={(e) => set({ email_address: e.target.value })} />
          </Field>
          <Field label="Commission %" hint={terms ?? "0 to 100"}>
            <input
              name="commission"
              type="number"
              inputMode="numeric"
              min={0}
              max={100}
              value={a.commission}
              readOnly={!!terms}
              onChange={(e) => set({ commission: clamp100(e.target.value) })}
            />
          </Field>
        </div>
      </Section>

      <Section title="Security">
        <Field label="New password" hint={id ? "Leave empty to keep the current password" : "At least 8 characters; Generate makes one of 12"}>
          <input
            name="password"
            type={showPassword ? "text" : "password"}
            autoComplete="new-password"
            spellCheck={false}
            value={password}
            className="people-password-input"
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        <div className="people-password">
          <button
            type="button"
            className="btn"
            onClick={() => {
              setPassword(generatePassword());
              setShowPassword(true);
            }}
          >
            Generate password
          </button>
          <button type="button" className="btn" onClick={() => setShowPassword(!showPassword)} aria-pressed={showPassword}>
            {showPassword ? "Hide" : "Show"}
          </button>
          {id > 0 && (
            <button
              type="button"
              className="btn btn-primary"
              disabled={!password}
              onClick={() => (password.length < 8 ? toast("The password needs at least 8 characters", "warning") : setAgentPassword(id))}
            >
              Set password
            </button>
          )}
        </div>
      </Section>

      <div className="form-buttons people-actions">
        {id > 0 && !a.is_hq && (
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
