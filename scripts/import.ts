// npm run import -- --from <old system's API URL> --user <agent> --password <pw> --pin <admin PIN> [--dry-run]
// Moving in (issue 26): brings the old system's records into this box's database (the one
// IRONBOX_DATA_DIR / DATABASE_URL names, as the box itself would open it), keeping their ids.
// Run it again for the cut-over delta; it resumes after an interruption. The box may be
// running meanwhile (README: what it then waits for). The WAL is checkpointed as the import
// goes and the file left flushed at its end (issue 32). The password may come from IRONBOX_IMPORT_PASSWORD instead of the
// command line (which other users of the machine can see in the process list).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { settleWal } from "../db/bulkWriter";
import { migrateDatabase, openDatabase } from "../db/client";
import { afterEachWrite } from "../appliance/modules/import/importChild";
import { getBoxSecret } from "../appliance/modules/auth/secrets";
import { importCaller, type ImportReport, runImport } from "../appliance/modules/import/importer";
import { progressBar, progressTracker } from "../appliance/modules/import/progress";
import { describeSkipped } from "../appliance/modules/import/privileges";
import { checkSourceUrl } from "../appliance/modules/import/url";
import { loadConfig } from "../appliance/platform/config";
import { systemClock } from "../appliance/platform/clock";

const { values: a } = parseArgs({
  options: { from: { type: "string" }, user: { type: "string" }, password: { type: "string" }, pin: { type: "string" }, "dry-run": { type: "boolean" } },
});
const password = a.password ?? process.env.IRONBOX_IMPORT_PASSWORD;
if (!a.from || !a.user || !password || !a.pin) {
  console.error("usage: npm run import -- --from <URL> --user <agent> --password <password> --pin <admin PIN> [--dry-run]");
  process.exit(2);
}
const urlProblem = checkSourceUrl(a.from, { allowLoopback: true });
if (urlProblem) {
  console.error(`--from: ${urlProblem}`);
  process.exit(2);
}

const config = loadConfig(process.env);
const database = await openDatabase(config.databaseUrl, config.databaseAuthToken);
await migrateDatabase(database);
const db = database.db;
// A checkpoint every few writes, room for a box serving beside, a full GC now and then (issue 32).
const { afterWrite, litestream } = afterEachWrite(database, config.dataDir);
const track = progressTracker();
const tty = process.stderr.isTTY;
let lastLine = 0;
const euros = (c: number) => `€${(c / 100).toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

let report: ImportReport;
try {
  report = await runImport(
    { db, clock: systemClock, secret: await getBoxSecret(db), caller: await importCaller(db), databaseFile: database.file ?? null },
    {
      from: a.from,
      user: a.user,
      password,
      pin: a.pin,
      dryRun: a["dry-run"],
      afterWrite,
      onProgress: (p) => {
        const line = progressBar(track(p));
        if (tty) process.stderr.write(`\r\x1b[K${line}`);
        else if (Date.now() - lastLine > 5000 || p.done === p.total) (lastLine = Date.now()), console.error(line);
      },
    },
  );
} catch (e) {
  if (tty) process.stderr.write("\n");
  console.error(
    `Import failed: ${(e as Error).message}${(e as { report?: unknown }).report ? " (what was written stays; run the same command again to resume)" : ""}`,
  );
  await settleWal(database, { paused: litestream }).catch(() => {});
  database.close();
  process.exit(1);
}
if (tty) process.stderr.write("\n");

const out: string[] = [];
out.push(
  `${report.dry_run ? "Dry run (nothing written)" : `Import run ${report.run_id}`} from ${report.source}: ${report.seconds} s, ${report.requests} requests`,
);
out.push("kind                        read      new  changed  unchanged  refused");
for (const [kind, c] of Object.entries(report.kinds))
  out.push(
    `${kind.padEnd(24)}${[c!.read, c!.new, c!.changed, c!.unchanged, c!.refused].map((n, i) => String(n).padStart(i === 3 ? 11 : i === 0 ? 8 : 9)).join("")}`,
  );
const m = report.money;
out.push(
  `Money: ${m.tickets} tickets ${report.dry_run ? "would be written" : "written"}, totals ${euros(m.total_cents)}, paid ${euros(m.paid_cents)}; ` +
    (m.equal_to_source
      ? "each equal to the old system's, ticket by ticket."
      : `${m.refused_for_money} ticket(s) refused because their money did not add up (listed below).`),
);
if (report.totals) out.push(`Paid totals against their payment rows, over the whole box: ${report.totals.message}`);
if (report.refusals.length) {
  out.push(`Refused (${report.refusals.length + report.refusals_not_listed}):`);
  for (const r of report.refusals.slice(0, 50)) out.push(`  ${r.kind} ${r.id ?? "?"}: ${r.reason}`);
  if (report.refusals.length > 50) out.push(`  … and ${report.refusals.length - 50 + report.refusals_not_listed} more in the report file`);
}
if (report.skipped.length) {
  out.push(`Not taken from the old system (${report.skipped.length}):`);
  for (const x of report.skipped) out.push(`  ${describeSkipped(x)}`);
}
if (report.pins.length) {
  out.push("New PINs (shown only now: hand each to its employee; they can change it on Employees):");
  for (const p of report.pins) out.push(`  employee ${p.employee_id} ${p.full_name} (agent ${p.agent_id}): ${p.pin}`);
}
console.log(out.join("\n"));
const file = join(config.dataDir, `import-report-${report.run_id ?? "dry-run"}.json`);
writeFileSync(file, JSON.stringify({ ...report, pins: report.pins.map(({ pin: _, ...rest }) => rest) }, null, 1), { mode: 0o600 });
console.log(`Report (without PINs): ${file}`);
await settleWal(database, { paused: litestream });
database.close();
