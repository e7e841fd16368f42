import { useState } from "react";
import { addDays, businessDay } from "../../../appliance/domain/dates";
import type { AgentListRow } from "../../../appliance/modules/agents/model";
import type { AccountCode, JournalFormat } from "../../../appliance/modules/books/model";
import { DateField } from "../../components/DateField";
import { Field, Section } from "../../components/form";
import { LoadFailed } from "../../components/LoadFailed";
import { toast } from "../../components/toast";
import { api, BASE, fetchList, handleUnauthorized, queryString } from "../../lib/api";
import { currentToken } from "../../lib/session";
import { useList } from "../../lib/useList";
import { fileNameOf, save } from "../reporting/download";

const FORMATS: { value: JournalFormat; label: string }[] = [
  { value: "xero", label: "Xero (manual journal import)" },
  { value: "quickbooks", label: "QuickBooks Online (journal entries import)" },
  { value: "csv", label: "CSV" },
];

/**
 * The accountant's journal (issue 34, HQ staff): a range of days as one balanced journal per day
 * and shop in the chosen format, and the account code each kind of line goes to.
 */
export function JournalScreen() {
  const today = businessDay(new Date());
  const [from, setFrom] = useState(`${today.slice(0, 8)}01`);
  const [to, setTo] = useState(addDays(today, -1) < `${today.slice(0, 8)}01` ? today : addDays(today, -1));
  const [format, setFormat] = useState<JournalFormat>("xero");
  const [agent, setAgent] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  const agents = useList(() => fetchList<AgentListRow>("/agents/"));
  const codes = useList(() => api<AccountCode[]>("GET", "/accounting/accounts", { quiet: true }));
  const [edits, setEdits] = useState<Record<string, { code: string; name: string }>>({});

  async function download(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setProblem("");
    const token = currentToken();
    try {
      const res = await fetch(`${BASE}/accounting/journal${queryString({ from, to, format, ...(agent ? { agent } : {}) })}`, {
        cache: "no-store",
        headers: token ? { authorization: `token ${token}` } : {},
      });
      if (res.status === 204) return setProblem("No money moved in these days: there is no journal to download.");
      if (!res.ok) {
        const message = ((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? `The journal failed (${res.status})`;
        if (res.status === 401) handleUnauthorized(message, token);
        return setProblem(message);
      }
      const blob = await res.blob();
      const name = fileNameOf(res.headers.get("content-disposition"), `Journal ${from} ${to}.csv`);
      save(blob, name);
      toast(`Saved ${name}`);
    } catch {
      setProblem("Cannot reach the box; check the Wi-Fi");
    } finally {
      setBusy(false);
    }
  }

  async function saveCodes() {
    const accounts = Object.entries(edits).map(([key, v]) => ({ key, ...v }));
    if (!accounts.length) return;
    try {
      await api("PUT", "/accounting/accounts", { body: { accounts } });
      toast("Account codes saved");
      setEdits({});
      await codes.retry();
    } catch {
      // api() showed the box's message.
    }
  }

  const row = (c: AccountCode) => edits[c.key] ?? { code: c.code, name: c.name };
  return (
    <div className="stack">
      <Section title="Download the journal">
        <form className="people-grid" onSubmit={download} aria-label="Journal">
          <Field label="From">
            <DateField name="from" label="From" value={from} onChange={setFrom} clearable={false} />
          </Field>
          <Field label="To">
            <DateField name="to" label="To" value={to} onChange={setTo} clearable={false} />
          </Field>
          <Field label="Format">
            <select aria-label="Format" value={format} onChange={(e) => setFormat(e.target.value as JournalFormat)}>
              {FORMATS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Shop">
            <select aria-label="Shop" value={agent} onChange={(e) => setAgent(e.target.value)}>
              <option value="">Every shop</option>
              {(agents.items ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </Field>
          <div>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? "Making the journal…" : "Download"}
            </button>
          </div>
        </form>
        <LoadFailed what="the shops" error={agents.error} onRetry={agents.retry} />
        {problem && (
          <p className="form-error" role="alert" data-testid="journal-problem">
            {problem}
          </p>
        )}
      </Section>
      <Section
        title="Account codes"
        actions={
          <button type="button" className="btn btn-primary" onClick={saveCodes} disabled={!Object.keys(edits).length}>
            Save
          </button>
        }
      >
        <LoadFailed what="the account codes" error={codes.error} onRetry={codes.retry} />
        {codes.items && (
          <table className="table" data-testid="account-codes">
            <thead>
              <tr>
                <th>Line</th>
                <th>Code</th>
                <th>Account name</th>
              </tr>
            </thead>
            <tbody>
              {codes.items.map((c) => (
                <tr key={c.key}>
                  <td>{c.label}</td>
                  <td>
                    <input
                      aria-label={`${c.label} code`}
                      value={row(c).code}
                      onChange={(e) => setEdits({ ...edits, [c.key]: { ...row(c), code: e.target.value } })}
                    />
                  </td>
                  <td>
                    <input
                      aria-label={`${c.label} name`}
                      value={row(c).name}
                      onChange={(e) => setEdits({ ...edits, [c.key]: { ...row(c), name: e.target.value } })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </div>
  );
}
