// The import's progress in words, for the command line and the HQ screen: the step, counts,
// a bar and the time left. Time left is the current step's (tickets are nearly all of an
// import's time, so on the long step it is the import's), from its rate so far.
import type { Progress } from "./types";

export interface ProgressView {
  step: string;
  done: number;
  total: number;
  percent: number;
  /** Seconds left in this step; null until there is a rate to go by. */
  seconds_left: number | null;
}

export function progressTracker(now: () => number = () => performance.now()) {
  let kind = "";
  let since = now();
  return (p: Progress): ProgressView => {
    if (p.kind !== kind) (kind = p.kind), (since = now());
    const total = Math.max(p.total, p.done);
    const elapsed = (now() - since) / 1000;
    const rate = elapsed > 0.5 && p.done > 0 ? p.done / elapsed : 0;
    return {
      step: `${p.step + 1}/${p.steps} ${p.label}`,
      done: p.done,
      total,
      percent: total ? Math.floor((100 * p.done) / total) : 0,
      seconds_left: rate ? Math.round((total - p.done) / rate) : null,
    };
  };
}

const clock = (s: number) =>
  s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;

/** `[########------------] 1,200/5,000 tickets 24% · 1m12s left` */
export function progressBar(v: ProgressView, width = 24): string {
  const full = Math.round((width * v.percent) / 100);
  const n = (x: number) => x.toLocaleString("en");
  const left = v.seconds_left == null ? "" : ` · ${clock(v.seconds_left)} left`;
  return `[${"#".repeat(full)}${"-".repeat(width - full)}] ${v.step}: ${n(v.done)}/${n(v.total)} ${v.percent}%${left}`;
}
