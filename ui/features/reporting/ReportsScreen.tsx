import { useEffect, useRef, useState } from "react";
import { DateField } from "../../components/DateField";
import { businessDay } from "../../../appliance/domain/dates";
import { displayDate } from "../../../appliance/domain/format";
import type { AgentListRow } from "../../../appliance/modules/agents/model";
import { clamp100, Field, Toggle } from "../../components/form";
import { toast } from "../../components/toast";
import { fetchList, type Query } from "../../lib/api";
import { useList } from "../../lib/useList";
import { LoadFailed } from "../../components/LoadFailed";
import { listActions } from "../catalogue/api";
import { ChipToggles } from "../people/fields";
import { listTicketStates } from "../tickets/api";
import type { ReportFormat, ReportName } from "../../../appliance/modules/reports/model";
import { listSites } from "../chain/api";
import { downloadReport, type Outcome, type Progress, ReportError } from "./download";

type Pick = Set<number>;
const number = new Intl.NumberFormat("en-MT");
const rows = (n: number) => `${number.format(n)} row${n === 1 ? "" : "s"}`;

export const ReportsScreen = () => <ReportSections />;

type Range = { from: string; to: string };
const rangeProblem = (r: Range) => (r.from && r.to && r.from > r.to ? "From must not be after To" : null);

/**
 * Spec §2 Reporting: four download sections, each with its own filters. One date range drives
 * all four (issue 25: an admin runs them for the same period; eight date fields were eight
 * chances to get one wrong); a section may take dates of its own. `chain` (head
 * quarters' box in HQ mode, issue 15): the same reports over every site's copy, a Site column
 * first, or one site's; agent ids are each site's own, so the Agents filter is left out.
 */
export function ReportSections({ chain }: { chain?: boolean }) {
  const [sites, setSites] = useState<string[]>([]);
  const [site, setSite] = useState("");
  // A shop's admin gets only its own agent back (and its report is scoped to it anyway).
  const agentList = useList(() => fetchList<AgentListRow>("/agents/"));
  const actionList = useList(listActions);
  const stateList = useList(listTicketStates);
  const agents = agentList.items ?? [];
  const actions = actionList.items ?? [];
  const states = stateList.items ?? [];
  // A filter whose choices failed to load says so (issue 31), never an empty set of chips.
  const filterLists = [agentList, actionList, stateList];
  const filtersFailed = filterLists.find((l) => l.error)?.error ?? null;
  const retryFilters = () => filterLists.forEach((l) => l.error && void l.retry());
  useEffect(() => {
    if (chain) listSites().then((list) => setSites(list.filter((x) => x.has_copy).map((x) => x.site)));
  }, [chain]);
  const scope = chain ? { site } : undefined;
  const named = (list: { id: number; name: string }[]) => list.map((x) => ({ id: x.id, name: x.name || "(none)" }));
  const today = businessDay(new Date());
  const [range, setRange] = useState<Range>({ from: today, to: today });
  const badRange = rangeProblem(range);

  return (
    <div className="stack reports">
      <LoadFailed what="the report filters" error={filtersFailed} onRetry={retryFilters} />
      {chain && (
        <section className="card section" aria-label="Sites">
          <Field label="Site" hint="Every site's copy at head quarters, each row naming its site; or one site">
            <select value={site} onChange={(e) => setSite(e.target.value)}>
              <option value="">All sites</option>
              {sites.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </Field>
        </section>
      )}
      <section className="card section" aria-label="Dates">
        <h2>Dates for every report</h2>
        <div className="filters">
          <Field label="From">
            <DateField label="From" value={range.from} onChange={(from) => setRange((r) => ({ ...r, from }))} clearable={false} />
          </Field>
          <Field label="To">
            <DateField label="To" value={range.to} onChange={(to) => setRange((r) => ({ ...r, to }))} clearable={false} />
          </Field>
        </div>
        {badRange && <p className="form-error">{badRange}</p>}
      </section>
      <ReportSection range={range} chain={scope} name="salesReport" title="Sales report" button="Download Sales Report">
        {(f) => <Chips label="Actions" items={named(actions)} pick={f.actions} />}
      </ReportSection>
      <ReportSection range={range} chain={scope} name="clientReport" title="Client report" button="Download Client Report">
        {() => null}
      </ReportSection>
      <ReportSection range={range} chain={scope} name="itemReport" title="Item report" button="Download Item Report" commission>
        {(f) => (
          <>
            {!chain && <Chips label="Agents" items={agents.map((a) => ({ id: a.id, name: a.name }))} pick={f.agents} />}
            <Chips label="States" items={named(states)} pick={f.states} />
            <Chips label="Actions" items={named(actions)} pick={f.actions} />
          </>
        )}
      </ReportSection>
      <ReportSection range={range} chain={scope} name="itemStateReport" title="Item state report" button="Download Item State Report">
        {(f) => (
          <>
            <Chips label="Actions" items={named(actions)} pick={f.actions} />
            <Chips label="States" items={named(states)} pick={f.states} />
          </>
        )}
      </ReportSection>
    </div>
  );
}

/** A multi-select: nothing picked means every one. */
function Chips({ label, items, pick }: { label: string; items: { id: number; name: string }[]; pick: [Pick, (p: Pick) => void] }) {
  const [selected, setSelected] = pick;
  const toggle = (id: number) => {
    const next = new Set(selected);
    if (!next.delete(id)) next.add(id);
    setSelected(next);
  };
  return (
    <fieldset className="report-pick">
      <legend>
        {label} <small className="muted">{selected.size ? `${selected.size} picked` : "none picked: all"}</small>
      </legend>
      <ChipToggles label={label} items={items} selected={selected} onToggle={toggle} />
    </fieldset>
  );
}

/**
 * The box makes only a couple of reports at a time (it has two cores and a counter to serve)
 * and answers 429 meanwhile: wait for a turn, retrying every 2 s for up to a minute, unless
 * the user cancels.
 */
async function withTurn(signal: AbortSignal, onWait: () => void, run: () => Promise<Outcome>): Promise<Outcome> {
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      return await run();
    } catch (e) {
      if (!(e instanceof ReportError && e.status === 429) || Date.now() > until) throw e;
    }
    onWait();
    await new Promise((r) => setTimeout(r, 2000));
    if (signal.aborted) return { kind: "cancelled" };
  }
}

interface Filters {
  agents: [Pick, (p: Pick) => void];
  states: [Pick, (p: Pick) => void];
  actions: [Pick, (p: Pick) => void];
}

type Status =
  | { kind: "idle" }
  | { kind: "waiting"; format: ReportFormat }
  | { kind: "running"; format: ReportFormat; progress: Progress }
  | { kind: "done"; text: string }
  | { kind: "empty" }
  | { kind: "error"; text: string };

function ReportSection({
  range,
  chain,
  name,
  title,
  button,
  commission: hasCommission,
  children,
}: {
  /** The screen's shared dates, used unless this section takes its own. */
  range: Range;
  /** A chain report (HQ mode): over every site, or `site` alone when set. */
  chain?: { site: string };
  name: ReportName;
  title: string;
  button: string;
  commission?: boolean;
  children: (f: Filters) => React.ReactNode;
}) {
  // Own dates start as the shared ones, and go back to them when the box is unticked.
  const [own, setOwn] = useState<Range | null>(null);
  const { from, to } = own ?? range;
  const [commission, setCommission] = useState(0);
  const f: Filters = { agents: useState<Pick>(new Set()), states: useState<Pick>(new Set()), actions: useState<Pick>(new Set()) };
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const running = useRef<AbortController | null>(null);
  // Leaving the screen stops a download in progress (the box stops the report too).
  useEffect(() => () => running.current?.abort(), []);

  const badRange = rangeProblem({ from, to });
  const query = (): Query => ({
    from,
    to,
    ...(name === "itemReport" ? { agents: [...f.agents[0]] } : {}),
    ...(name === "itemReport" || name === "itemStateReport" ? { states: [...f.states[0]] } : {}),
    ...(name !== "clientReport" ? { actions: [...f.actions[0]] } : {}),
    ...(hasCommission ? { commission } : {}),
    ...(chain?.site ? { site: chain.site } : {}),
  });

  async function download(format: ReportFormat) {
    const ctrl = new AbortController();
    running.current = ctrl;
    setStatus({ kind: "running", format, progress: { rows: 0, bytes: 0 } });
    try {
      const out = await withTurn(
        ctrl.signal,
        () => setStatus({ kind: "waiting", format }),
        () =>
          downloadReport(name, query(), format, {
            signal: ctrl.signal,
            onProgress: (progress) => setStatus({ kind: "running", format, progress }),
            chain: !!chain,
          }),
      );
      if (out.kind === "saved") setStatus({ kind: "done", text: `Saved ${out.fileName}${format === "csv" ? `: ${rows(out.rows)}` : ""}` });
      else if (out.kind === "empty") setStatus({ kind: "empty" });
      else setStatus({ kind: "done", text: "Download cancelled" });
    } catch (e) {
      const text = e instanceof ReportError ? e.message : "Something went wrong";
      setStatus({ kind: "error", text });
      toast(text, "danger");
    } finally {
      if (running.current === ctrl) running.current = null;
    }
  }

  const busy = status.kind === "running" || status.kind === "waiting";
  return (
    <section className="card section" aria-label={title}>
      <h2>{title}</h2>
      <div className="filters">
        <div className="report-dates">
          <Toggle label="Own dates" checked={!!own} onChange={(on) => setOwn(on ? range : null)} />
          {!own && (
            <p className="muted" data-testid={`${name}-dates`}>
              {from === to ? displayDate(from) : `${displayDate(from)} – ${displayDate(to)}`}
            </p>
          )}
        </div>
        {own && (
          <>
            <Field label="From">
              <DateField label="From" value={own.from} onChange={(f) => setOwn((r) => r && { ...r, from: f })} clearable={false} />
            </Field>
            <Field label="To">
              <DateField label="To" value={own.to} onChange={(t) => setOwn((r) => r && { ...r, to: t })} clearable={false} />
            </Field>
          </>
        )}
        {hasCommission && (
          <Field label="Commission %" hint="Whole number, 0 to 100">
            <input type="number" inputMode="numeric" min={0} max={100} step={1} value={commission} onChange={(e) => setCommission(clamp100(e.target.value))} />
          </Field>
        )}
      </div>
      {children(f)}
      {badRange && own && <p className="form-error">{badRange}</p>}
      <div className="report-actions">
        <p className="report-status" role="status" aria-live="polite" data-testid={`${name}-status`}>
          {status.kind === "running" &&
            (status.format === "csv" ? `${rows(status.progress.rows)} so far…` : `${number.format(Math.round(status.progress.bytes / 1024))} KB so far…`)}
          {status.kind === "waiting" && "Waiting for another report to finish…"}
          {status.kind === "empty" && "No rows for these dates and filters: there is nothing to download."}
          {status.kind === "done" && status.text}
          {status.kind === "error" && <span className="form-error">{status.text}</span>}
        </p>
        {busy ? (
          <button type="button" className="btn btn-danger" onClick={() => running.current?.abort()}>
            Cancel
          </button>
        ) : (
          <>
            <button type="button" className="btn" disabled={!!badRange || !from || !to} aria-label={`${button} as Excel`} onClick={() => download("xlsx")}>
              Excel (.xlsx)
            </button>
            <button type="button" className="btn btn-primary" disabled={!!badRange || !from || !to} onClick={() => download("csv")}>
              {button}
            </button>
          </>
        )}
      </div>
    </section>
  );
}
