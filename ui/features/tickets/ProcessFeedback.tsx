import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import { businessDay } from "../../../appliance/domain/dates";
import { displayDate } from "../../../appliance/domain/format";
import { dayOfWeek, loadColour, WEEKDAYS } from "../../../appliance/domain/schedule";
import type { WeeklyStat } from "../../../appliance/modules/scheduling/model";
import { api } from "../../lib/api";
import { labelsPrinted } from "../printing/printer";

const thisWeek = (actions: number[]) => api<WeeklyStat[]>("GET", "/weeklyStats/thisWeek", { query: { actions }, quiet: true });

/**
 * Spec §2 ticket view, "Process Feedback": this week's plant load (Sunday..Saturday) for each
 * action on the ticket, what is accepted against the month's configured amount, in spec §9's
 * colours. One row per day and a column per action, so a phone shows it without scrolling
 * sideways. It reloads whenever labels are printed in this session (spec §4): they move items'
 * process dates to tomorrow.
 */
export function ProcessFeedback({ actionIds }: { actionIds: number[] }) {
  useSignals();
  const printed = labelsPrinted.value;
  const key = [...new Set(actionIds)].sort((a, b) => a - b).join(",");
  const [stats, setStats] = useState<WeeklyStat[] | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `printed` is the reload trigger (labels printed), not a value the effect reads.
  useEffect(() => {
    if (!key) return setStats([]);
    let current = true;
    // Spec §8: weekly statistics fail silently; the last figures stay.
    thisWeek(key.split(",").map(Number)).then(
      (s) => current && setStats(s),
      () => {},
    );
    return () => void (current = false);
  }, [key, printed]);

  const actions = [...new Map((stats ?? []).map((s) => [s.action_id, s.action])).entries()];
  const days = [...new Set((stats ?? []).map((s) => s.date))].sort();
  const cell = new Map((stats ?? []).map((s) => [`${s.action_id}|${s.date}`, s]));
  const today = businessDay(new Date());
  return (
    <section className="card section" aria-label="Process Feedback" data-testid="process-feedback">
      <h2>Process Feedback</h2>
      {stats === null ? (
        <p className="muted">Loading this week's workload…</p>
      ) : actions.length === 0 ? (
        <p className="muted">No actions on this ticket yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="workload-table">
            <caption className="muted">This week: accepted of the month's amount, per action</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {actions.map(([id, name]) => (
                  <th key={id} scope="col">
                    {name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((date) => {
                const weekday = WEEKDAYS[dayOfWeek(date)]!;
                const label = `${weekday.slice(0, 3)} ${displayDate(date).slice(0, 5)}`;
                return (
                  <tr key={date} aria-current={date === today ? "date" : undefined}>
                    <th scope="row">{date === today ? <strong>{label} · today</strong> : label}</th>
                    {actions.map(([id, name]) => {
                      const s = cell.get(`${id}|${date}`);
                      if (!s) return <td key={id} />;
                      const colour = loadColour(s.amount_accepted, s.total_amount);
                      return (
                        <td key={id}>
                          <span
                            role="img"
                            className={`sched-load load-${colour}`}
                            data-colour={colour}
                            aria-label={`${name} ${weekday}: ${s.amount_accepted} of ${s.total_amount}`}
                          >
                            {s.amount_accepted}/{s.total_amount}
                          </span>
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
