import { useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { deleteRecord, failureMessage } from "../../components/records";
import { Field, Section, Toggle, clamp100 } from "../../components/form";
import { RecordList } from "../../components/RecordList";
import { toast } from "../../components/toast";
import { useHqAgent } from "../../app/access";
import { api, ApiError, apiList } from "../../lib/api";
import { type Address, type AddressDraft, AddressFields, addressTouched, addressValid, blankAddress, draftOf, generatePassword, idOf, type Params, PhoneInput } from "./fields";

export interface Agent {
  id: number;
  name: string;
  type: string;
  user_name: string;
  landline: string;
  mobile: string;
  address_id: number | null;
  address?: Address | null;
  commission: number;
  contact_person: string;
  email_address: string;
  is_hq?: boolean;
  enabled?: boolean;
  password_set?: boolean;
  locality?: string | null;
}

/** Spec §5: agents are searched on name, landline, mobile and e-mail. */
const matches = (a: Agent, q: string) => {
  const t = q.toLowerCase();
  return [a.name, a.landline, a.mobile, a.email_address].some((v) => (v ?? "").toLowerCase().includes(t));
};

/** Spec §2: the first 50 agents, searchable, with add. */
export function AgentsList() {
  return (
    <RecordList<Agent>
      path="/agents/"
      noun="agent"
      newHref="/agents/0"
      matches={matches}
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
    />
  );
}

const blank: Agent = { id: 0, name: "", type: "SHOP", user_name: "", landline: "", mobile: "", address_id: null, commission: 0, contact_person: "", email_address: "" };

export function AgentDetail({ params }: { params: Params }) {
  const id = idOf(params);
  const [, navigate] = useLocation();
  const [a, setA] = useState<Agent>(blank);
  const [address, setAddress] = useState<AddressDraft>(blankAddress);
  const [password, setPassword] = useState("");
  const [showPassword, setShowPassword] = useState(false);
  const [loaded, setLoaded] = useState(id === 0);
  const [saving, setSaving] = useState(false);
  // Type, user name and commission are the terms head quarters sets; a shop's admin sees them.
  const terms = useHqAgent() ? undefined : "Set by head quarters";

  useEffect(() => {
    setLoaded(id === 0);
    setPassword("");
    if (!id) {
      setA(blank);
      setAddress(blankAddress);
      return;
    }
    let live = true;
    api<Agent>("GET", `/agents/${id}`)
      .then((r) => {
        if (!live) return;
        setA({ ...blank, ...r });
        setAddress(draftOf(r.address));
        setLoaded(true);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [id]);

  const set = (patch: Partial<Agent>) => setA((prev) => ({ ...prev, ...patch }));

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
      ...(a.is_hq ? {} : { enabled: a.enabled ?? true }),
    };
    setSaving(true);
    try {
      let saved: Agent;
      try {
        saved = isNew ? await api<Agent>("POST", "/agents/", { body, quiet: true }) : await api<Agent>("PUT", `/agents/${id}`, { body, quiet: true });
      } catch (e) {
        toast(failureMessage(e, isNew), "danger");
        return;
      }
      toast(isNew ? "Agent Created" : "Agent Updated");
      if (password) await setAgentPassword(saved.id);
      if (isNew) navigate(`/agents/${saved.id}`, { replace: true });
      else setA((prev) => ({ ...prev, ...saved }));
    } finally {
      setSaving(false);
    }
  }

  async function remove() {
    // An agent with records is kept: the 409 says why (disable it instead).
    const done = await deleteRecord({ path: "/agents/", id, okText: "Agent Removed", confirm: { title: "Remove agent", message: `Remove ${a.name}? This cannot be undone.` } });
    if (done) navigate("/agents");
  }

  if (!loaded) return <p className="muted">Loading agent…</p>;
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
            <input name="user_name" value={a.user_name} autoComplete="off" autoCapitalize="none" spellCheck={false} readOnly={!!terms} onChange={(e) => set({ user_name: e.target.value })} />
          </Field>
          <Field label="Landline">
            <PhoneInput name="landline" value={a.landline} onChange={(landline) => set({ landline })} />
          </Field>
          {id > 0 && !a.is_hq && <Toggle label="Enabled (can log in)" checked={a.enabled ?? true} onChange={(enabled) => set({ enabled })} />}
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
            <input name="commission" type="number" inputMode="numeric" min={0} max={100} value={a.commission} readOnly={!!terms} onChange={(e) => set({ commission: clamp100(e.target.value) })} />
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
            <button type="button" className="btn btn-primary" disabled={!password} onClick={() => (password.length < 8 ? toast("The password needs at least 8 characters", "warning") : setAgentPassword(id))}>
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
