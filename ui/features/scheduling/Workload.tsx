import { useEffect, useMemo, useState } from "react";
import { Link, useLocation } from "wouter";
import { MONTHS, WEEKDAYS, monthOf, type MonthName } from "../../../appliance/domain/schedule";
import { apiDate } from "../../../appliance/domain/format";
import { Field, FormButtons, Section } from "../../components/form";
import { deleteRecord, failureMessage } from "../../components/records";
import { toast } from "../../components/toast";
import { LoadFailed } from "../../components/LoadFailed";
import { fetchList } from "../../lib/api";
import { useList } from "../../lib/useList";
import { useHqStaff } from "../../app/access";
import { Editable, idOf } from "../catalogue/shared";
import { useRecord } from "../../lib/useRecord";
import { type Configuration, type Named, listConfigurations, saveConfiguration } from "./api";

/** Spec §5: a workload amount is a whole number, minimum 0; negatives become 0. */
export const toAmount = (v: string) => {
  const n = Math.round(Number(v));
  return Number.isFinite(n) ? Math.max(0, n) : 0;
};
const monthLabel = (m: string) => m.charAt(0) + m.slice(1).toLowerCase();
const listActions = () => fetchList<Named>("/actions/");

/** Spec §2 /configuration: the workload settings, listed by month. */
export function WorkloadList() {
  const { items: configs, error, retry } = useList(listConfigurations);
  const hq = useHqStaff();
  const byMonth = MONTHS.map((m) => ({ month: m, rows: (configs ?? []).filter((c) => c.month === m).sort((a, b) => a.action.localeCompare(b.action)) })).filter(
    (g) => g.rows.length,
  );
  return (
    <Section
      title="Workload settings by month"
      actions={
        hq && (
          <Link href="/configuration/0" className="btn btn-small btn-primary">
            Add workload setting
          </Link>
        )
      }
    >
      {error ? (
        <LoadFailed what="the workload settings" error={error} onRetry={() => void retry()} />
      ) : configs === null ? (
        <p className="muted">Loading…</p>
      ) : byMonth.length === 0 ? (
        <p className="muted">No workload settings yet: the plant takes any amount.</p>
      ) : (
        <div className="workload-months">
          {byMonth.map((g) => (
            <table key={g.month} className="workload-table" aria-label={`Workload ${monthLabel(g.month)}`}>
              <caption>{monthLabel(g.month)}</caption>
              <thead>
                <tr>
                  <th scope="col">Action</th>
                  {WEEKDAYS.map((d) => (
                    <th key={d} scope="col" title={d} className="num">
                      {d.slice(0, 2)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {g.rows.map((c) => (
                  <tr key={c.id} data-testid="workload-setting">
                    <th scope="row">
                      <Link href={`/configuration/${c.id}`}>{c.action}</Link>
                    </th>
                    {c.per_day.map((n, d) => (
                      <td key={d} className="num">
                        {n}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
        </div>
      )}
    </Section>
  );
}

interface Draft {
  month: MonthName;
  action_id: number;
  per_day: number[];
}

/** Spec §2 /configuration/{id} (0 means new): one month and action, seven amounts Sunday..Saturday. */
export function WorkloadDetail({ params }: { params: Record<string, string | undefined> }) {
  const id = idOf(params);
  const [, navigate] = useLocation();
  const blank: Configuration = {
    id: 0,
    month: monthOf(apiDate(new Date())),
    action_id: 0,
    action: "",
    amounts: "0,0,0,0,0,0,0",
    per_day: [0, 0, 0, 0, 0, 0, 0],
  };
  const { record: loaded, setRecord: setLoaded } = useRecord<Configuration>({ path: "/configurations/", id, blank });
  const [draft, setDraft] = useState<Draft>({ month: blank.month, action_id: 0, per_day: blank.per_day });
  const actionList = useList(listActions);
  const actions = actionList.items ?? [];
  const [saving, setSaving] = useState(false);
  const hq = useHqStaff();
  useEffect(() => setDraft({ month: loaded.month, action_id: loaded.action_id, per_day: [...loaded.per_day] }), [loaded]);

  async function submit() {
    if (!draft.action_id) return toast("Choose an action", "warning");
    setSaving(true);
    try {
      const saved = await saveConfiguration(id, { month: draft.month, action_id: draft.action_id, amounts: draft.per_day });
      toast(id ? "Configuration Updated!" : "Configuration Created!");
      if (id) setLoaded(saved);
      else navigate(`/configuration/${saved.id}`, { replace: true });
    } catch (e) {
      toast(failureMessage(e, id === 0), "danger");
    } finally {
      setSaving(false);
    }
  }
  async function remove() {
    if (await deleteRecord({ path: "/configurations/", id, okText: "Configuration Removed" })) navigate("/configuration");
  }

  return (
    <div className="stack">
      <Section title={id ? `${monthLabel(loaded.month)} · ${loaded.action || "Workload"}` : "New workload setting"}>
        <Editable>
          <div className="grid-2 workload-detail">
            <Field label="Month">
              <select name="month" value={draft.month} onChange={(e) => setDraft({ ...draft, month: e.target.value as MonthName })}>
                {MONTHS.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            </Field>
            <LoadFailed what="the actions" error={actionList.error} onRetry={() => void actionList.retry()} />
            <Field label="Action">
              <select name="action_id" value={draft.action_id || ""} onChange={(e) => setDraft({ ...draft, action_id: Number(e.target.value) })}>
                <option value="">Choose an action</option>
                {actions.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <p className="muted small">How many items of this action the plant takes each weekday of the month (0: none).</p>
          <div className="workload-days">
            {WEEKDAYS.map((day, d) => (
              <Field key={day} label={day}>
                <input
                  type="number"
                  inputMode="numeric"
                  min={0}
                  step={1}
                  value={draft.per_day[d]}
                  onChange={(e) => setDraft({ ...draft, per_day: draft.per_day.map((n, i) => (i === d ? toAmount(e.target.value) : n)) })}
                />
              </Field>
            ))}
          </div>
        </Editable>
        {hq && <FormButtons onSave={submit} onDelete={id ? remove : undefined} saving={saving} />}
      </Section>
    </div>
  );
}

const cellKey = (month: string, action: number) => `${month}:${action}`;

/**
 * /configWorkLoad: one month's grid of actions × the seven weekdays, edited in place. Changes
 * to several months are kept until Save, which writes each changed row.
 */
export function WorkloadGrid() {
  const configList = useList(listConfigurations);
  const configs = configList.items ?? [];
  const actionList = useList(listActions);
  const actions = actionList.items ?? [];
  // Save writes a row per changed cell, creating the ones not stored: over settings that failed
  // to load it would create duplicates, so the grid is not saved until they load (issue 31).
  const loaded = configList.items !== null && !configList.error;
  const [month, setMonth] = useState<MonthName>(monthOf(apiDate(new Date())));
  const [edits, setEdits] = useState<Record<string, number[]>>({});
  const [saving, setSaving] = useState(false);
  const hq = useHqStaff();
  const load = () => configList.retry();

  const byKey = useMemo(() => new Map(configs.map((c) => [cellKey(c.month, c.action_id), c])), [configs]);
  const stored = (k: string) => byKey.get(k)?.per_day ?? [0, 0, 0, 0, 0, 0, 0];
  const changed = Object.keys(edits).filter((k) => edits[k]!.some((n, d) => n !== stored(k)[d]));
  const monthsChanged = new Set(changed.map((k) => k.split(":")[0]));

  function edit(action: number, day: number, value: string) {
    const k = cellKey(month, action);
    const row = [...(edits[k] ?? stored(k))];
    row[day] = toAmount(value);
    setEdits({ ...edits, [k]: row });
  }
  function onKey(e: React.KeyboardEvent<HTMLInputElement>, row: number, col: number) {
    const move = e.key === "Enter" || e.key === "ArrowDown" ? 1 : e.key === "ArrowUp" ? -1 : 0;
    if (!move) return;
    e.preventDefault();
    document.querySelector<HTMLInputElement>(`[data-cell="${row + move}:${col}"]`)?.focus();
  }

  async function saveAll() {
    if (!loaded) return;
    if (!changed.length) return toast("Nothing changed", "warning");
    setSaving(true);
    try {
      // One configuration per (month, action): update the stored one, or create it.
      for (const k of changed) {
        const [m, a] = k.split(":");
        await saveConfiguration(byKey.get(k)?.id ?? 0, { month: m as MonthName, action_id: Number(a), amounts: edits[k]! });
      }
      toast("Configuration saved.");
      setEdits({});
    } catch (e) {
      toast(failureMessage(e), "danger");
    } finally {
      await load();
      setSaving(false);
    }
  }

  return (
    <div className="stack">
      <div className="toolbar">
        <label className="field workload-month-pick">
          <span>Month</span>
          <select aria-label="Month" value={month} onChange={(e) => setMonth(e.target.value as MonthName)}>
            {MONTHS.map((m) => (
              <option key={m} value={m}>
                {m}
                {monthsChanged.has(m) ? " (changed)" : ""}
              </option>
            ))}
          </select>
        </label>
        {hq && (
          <>
            <span className="muted people-hint">{changed.length ? `${changed.length} changed` : "Items the plant takes per action and weekday."}</span>
            <button type="button" className="btn btn-primary" onClick={saveAll} disabled={saving || !loaded || !changed.length}>
              Save
            </button>
          </>
        )}
      </div>
      <LoadFailed what="the workload settings" error={configList.error} onRetry={() => void configList.retry()} />
      <LoadFailed what="the actions" error={actionList.error} onRetry={() => void actionList.retry()} />
      <Editable>
        <div className="grid-scroll card">
          <table className="price-grid workload-grid" aria-label={`Workload ${month}`}>
            <thead>
              <tr>
                <th scope="col">Action</th>
                {WEEKDAYS.map((d) => (
                  <th key={d} scope="col" title={d}>
                    {d.slice(0, 3)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {actions.map((a, r) => {
                const k = cellKey(month, a.id);
                const row = edits[k] ?? stored(k);
                return (
                  <tr key={a.id}>
                    <th scope="row">{a.name}</th>
                    {WEEKDAYS.map((d, c) => (
                      <td key={d}>
                        <input
                          data-cell={`${r}:${c}`}
                          aria-label={`${a.name} ${d}`}
                          type="number"
                          inputMode="numeric"
                          min={0}
                          className={row[c] !== stored(k)[c] ? "cell-changed" : byKey.has(k) ? "" : "cell-unset"}
                          value={row[c]}
                          onChange={(e) => edit(a.id, c, e.target.value)}
                          onKeyDown={(e) => onKey(e, r, c)}
                        />
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </Editable>
      <p className="muted small">Greyed rows have no setting for the month yet; saving one creates it.</p>
    </div>
  );
}
