/**
 * Report streaming (issue 13: the item report over all items at ≥ 200k rows/s, peak RSS ≤ 200 MB).
 *   bun scripts/bench/report.ts <dataDir> [--report itemReport] [--format csv]
 * Boots the appliance on a copy of the reference data (logging in writes sessions), downloads
 * the report over every day of the data through the whole HTTP stack, and prints rows/s, bytes,
 * the peak RSS of the report's process and of the box's, and the box's largest timer gap
 * meanwhile (how long a tablet's request could have waited). The mixed load while a report
 * streams: scripts/bench/mixed-load.ts <dataDir> --report.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bootLoggedIn, downloadReport, fmt } from "./lib";

const src = process.argv[2];
if (!src) throw new Error("usage: bun scripts/bench/report.ts <dataDir> [--report itemReport] [--format csv]");
const opt = (name: string, d: string) => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1]! : d);
const report = opt("report", "itemReport");
const format = opt("format", "csv");

const dir = mkdtempSync(join(tmpdir(), "ironbox-report-"));
copyFileSync(join(src, "ironbox.db"), join(dir, "ironbox.db"));
const { box, token } = await bootLoggedIn(dir);

// Boot's own work (the upload sweep, the first checkpoint after the logins) is over by then.
await Bun.sleep(4000);
let peak = process.memoryUsage().rss;
let lastTick = performance.now();
let gap = 0;
const sampler = setInterval(() => {
  const now = performance.now();
  gap = Math.max(gap, now - lastTick - 5);
  lastTick = now;
  peak = Math.max(peak, process.memoryUsage().rss);
}, 5);
const rssBefore = process.memoryUsage().rss;
/** The report runs in a process of the box's own (reports/child.ts): its peak RSS, read from /proc. */
let childPeak = 0;
const read = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
};
const childSampler = setInterval(() => {
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    for (const pid of read(`/proc/${process.pid}/task/${task}/children`).split(" ").filter(Boolean)) {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`));
      if (hwm) childPeak = Math.max(childPeak, Number(hwm[1]) * 1024);
    }
  }
}, 50);
const start = performance.now();
const r = await downloadReport((q) => box.app.handle(q), `http://localhost/api/v1/tickets/csv/${report}?from=2000-01-01&to=2030-12-31&format=${format}`, token);
const ms = performance.now() - start;
clearInterval(sampler);
clearInterval(childSampler);
// CSV: lines less the header (a description with a line break would add one; the generator writes none).
const rows = format === "csv" ? r.lines - 1 : Number.NaN;
console.log(`${report} (${format}) over all days of ${src}`);
console.log(
  `rows ${rows}  bytes ${(r.bytes / 1e6).toFixed(1)} MB  time ${(ms / 1000).toFixed(2)} s  ${Math.round((rows / ms) * 1000).toLocaleString("en")} rows/s (bar ≥ 200,000)`,
);
console.log(
  `report process peak RSS ${(childPeak / 2 ** 20).toFixed(0)} MiB (bar ≤ 200 MB); the box ${(peak / 2 ** 20).toFixed(0)} MiB at most (${(rssBefore / 2 ** 20).toFixed(0)} MiB before the report)`,
);
console.log(`the box's largest timer gap meanwhile ${fmt(gap)}`);
box.stop();
box.database.close();
rmSync(dir, { recursive: true, force: true });
const ok = format !== "csv" || ((rows / ms) * 1000 >= 200_000 && childPeak <= 200e6);
process.exit(ok ? 0 : 1);
