import { useEffect, useMemo, useState } from "react";
import { displayDate, euroFromEuros } from "../../../appliance/domain/format";
import type { HomeStatistics, PeriodFigures, Ranked } from "../../../appliance/modules/reports/model";
import { api } from "../../lib/api";
import { currentToken } from "../../lib/session";
import { BarChart, type Series } from "./BarChart";

type PeriodKey = keyof HomeStatistics["periods"];
const PERIODS: { key: PeriodKey; label: string }[] = [
  { key: "today", label: "Today" },
  { key: "week", label: "This week" },
  { key: "month", label: "This month" },
];
const COLORS = { paid: "#1f8a4c", outstanding: "#d97706", state: "#1b6ca8", garment: "#0e7490", action: "#6d28d9" };
const number = new Intl.NumberFormat("en-MT");
const wholeEuros = new Intl.NumberFormat("en-MT", { style: "currency", currency: "EUR", maximumFractionDigits: 0 });
const euroTick = (v: number) => wholeEuros.format(v);
const count = (n: number) => number.format(n);
const range = (p: PeriodFigures) => (p.from === p.to ? displayDate(p.from) : `${displayDate(p.from)} – ${displayDate(p.to)}`);
const ranked = (title: string, list: Ranked[], color: string) => (
  <BarChart title={title} labels={list.map((r) => r.name)} series={[{ label: "Items", values: list.map((r) => r.items), color }]} horizontal format={count} />
);
/** Paid and outstanding stacked: the bar's length is the sales. */
const moneySeries = (periods: PeriodFigures[]): Series[] => [
  { label: "Paid", values: periods.map((p) => p.paid), color: COLORS.paid },
  { label: "Outstanding", values: periods.map((p) => p.outstanding), color: COLORS.outstanding },
];

/**
 * The shell mounts Home again once the box has said whether this is the HQ agent, and each
 * statistics request takes a report worker on the box: the answer of the last 30 s (for the
 * same login) is reused, so a remount or a quick trip back home asks only once.
 */
let last: { token: string | null; at: number; answer: Promise<HomeStatistics> } | null = null;
function loadStatistics(): Promise<HomeStatistics> {
  const token = currentToken();
  if (!last || last.token !== token || Date.now() - last.at > 30_000) {
    const answer = api<HomeStatistics>("GET", "/statistics/home", { quiet: true });
    const mine = { token, at: Date.now(), answer };
    last = mine;
    // A failure is not kept: the next visit home asks again.
    answer.catch(() => last === mine && (last = null));
  }
  return last.answer;
}

/**
 * Spec §2/§6: the home statistics are for admins only; Home mounts this only for an admin, so
 * nobody else even asks for them (GET /statistics/home). A shop sees its own figures, head
 * quarters every shop's and a comparison of the shops.
 */
export function Statistics() {
  const [stats, setStats] = useState<HomeStatistics | null>(null);
  const [failed, setFailed] = useState(false);
  const [period, setPeriod] = useState<PeriodKey>("today");
  useEffect(() => {
    // Spec §8: statistics fail quietly; the tiles stay usable.
    loadStatistics().then(setStats, () => setFailed(true));
  }, []);
  const charts = useMemo(() => {
    if (!stats) return null;
    const shops = stats.shops;
    return (
      <div className="stats-charts">
        <BarChart
          title="Sales: paid and outstanding"
          labels={PERIODS.map((p) => p.label)}
          series={moneySeries(PERIODS.map((p) => stats.periods[p.key]))}
          stacked
          format={euroFromEuros}
          tick={euroTick}
        />
        <BarChart
          title="Tickets by state (open now)"
          labels={stats.tickets_by_state.map((s) => s.state || "(none)")}
          series={[{ label: "Tickets", values: stats.tickets_by_state.map((s) => s.tickets), color: COLORS.state }]}
          horizontal
          format={count}
        />
        {ranked("Top garments this month", stats.top_garments, COLORS.garment)}
        {ranked("Top actions this month", stats.top_actions, COLORS.action)}
        {shops && shops.length > 0 && (
          <BarChart
            title={`Shops: sales ${PERIODS.find((p) => p.key === period)!.label.toLowerCase()}`}
            labels={shops.map((s) => s.name)}
            series={moneySeries(shops.map((s) => s.periods[period]))}
            horizontal
            stacked
            format={euroFromEuros}
            tick={euroTick}
          />
        )}
      </div>
    );
  }, [stats, period]);

  if (failed) return <p className="muted">Statistics are not available right now.</p>;
  if (!stats) return <p className="muted">Loading statistics…</p>;
  const p = stats.periods[period];
  return (
    <section className="stats" aria-label="Statistics">
      <div className="stats-head">
        <div>
          <h2>{stats.scope === "chain" ? "Statistics: every shop" : "Statistics"}</h2>
          <small className="muted">{range(p)}</small>
        </div>
        <fieldset className="stats-periods" aria-label="Period">
          {PERIODS.map((x) => (
            <button
              key={x.key}
              type="button"
              className={`btn ${period === x.key ? "btn-primary" : ""}`}
              aria-pressed={period === x.key}
              onClick={() => setPeriod(x.key)}
            >
              {x.label}
            </button>
          ))}
        </fieldset>
      </div>
      <dl className="stats-figures">
        <Figure label="Sales" value={euroFromEuros(p.sales)} />
        <Figure label="Paid" value={euroFromEuros(p.paid)} />
        <Figure label="Takings" value={euroFromEuros(p.takings)} />
        <Figure label="Cash" value={euroFromEuros(p.cash)} />
        <Figure label="Card" value={euroFromEuros(p.card)} />
        <Figure label="Outstanding" value={euroFromEuros(p.outstanding)} warn={p.outstanding > 0} />
        <Figure label="Tickets" value={count(p.tickets)} />
        <Figure label="Items" value={count(p.items)} />
        <Figure label="Express items" value={count(p.express_items)} />
        <Figure label="Items due today" value={count(stats.items_due_today)} />
        <Figure label="Items overdue" value={count(stats.items_overdue)} warn={stats.items_overdue > 0} />
        <Figure label="Express open" value={count(stats.express_open)} />
      </dl>
      {charts}
    </section>
  );
}

function Figure({ label, value, warn }: { label: string; value: string; warn?: boolean }) {
  return (
    <div className={`stat-card${warn ? " stat-warn" : ""}`}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
