/**
 * HQ's lag with many sites: `bun scripts/bench/hq-sites.ts <reference data dir> [--sites 20]
 * [--parallel 2] [--after-only]`. Every site is a copy of the reference database shipped by a real
 * `litestream replicate` to a file:// storage folder; two HQ chain services (real
 * `litestream restore`, the real check) then run restore rounds over the same storage, in the
 * same run: "before" as HQ was before issue 33 (one site at a time, a whole restore and the
 * full `integrity_check` each), "after" as it is now (IRONBOX_HQ_RESTORE_PARALLEL at once,
 * `quick_check` but once a day, new WAL segments applied to the kept copy). Rounds: every
 * copy new, nothing moved, every site moved (one write each, shipped). HQ's worst lag for a
 * change is about one interval plus one round.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { createChainService } from "../../appliance/modules/chain/service";
import { createReportService } from "../../appliance/modules/reports/service";
import { systemClock } from "../../appliance/platform/clock";
import { replicate } from "../../appliance/test/chainSites";

const args = process.argv.slice(2);
const ref = args[0];
if (!ref) throw new Error("usage: bun scripts/bench/hq-sites.ts <reference data dir> [--sites 20] [--parallel 2]");
const opt = (name: string, dflt: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) || dflt : dflt);
const n = opt("--sites", 20);
const parallel = opt("--parallel", 2);
// HQ as it is now only: half the disk (one kept copy a site, not two) and half the time.
const afterOnly = args.includes("--after-only");
const tmp = mkdtempSync(join(tmpdir(), "ironbox-hq-sites-"));
const storage = join(tmp, "storage");
const shops = join(tmp, "shops");
mkdirSync(storage);
mkdirSync(shops);
const names = Array.from({ length: n }, (_, i) => `site-${String(i + 1).padStart(2, "0")}`);
const secs = (t0: number) => (performance.now() - t0) / 1000;
const walFiles = (site: string) => {
  const gens = join(storage, site, "generations");
  return readdirSync(gens).reduce((a, g) => a + (existsSync(join(gens, g, "wal")) ? readdirSync(join(gens, g, "wal")).length : 0), 0);
};

const reps = new Map<string, Awaited<ReturnType<typeof replicate>>>();
try {
  let t = performance.now();
  for (const name of names) {
    const file = join(shops, `${name}.db`);
    copyFileSync(join(ref, "ironbox.db"), file);
    new Database(file).run("PRAGMA journal_mode = WAL");
    // Litestream keeps running, as at a shop: one stopped and started again finds the WAL the
    // last connection's close checkpointed away and opens a new generation (a whole snapshot,
    // restored whole at HQ), which a running shop never does.
    reps.set(name, await replicate(file, join(storage, name), 600_000));
  }
  console.log(`shipped ${n} sites in ${secs(t).toFixed(1)} s`);
  const service = (name: string, width: number, tuning?: { fullCheck: "always"; incremental: false }) =>
    createChainService({
      hq: { sites: [], storage, restoreEverySec: 0, sftpKey: null, restoreParallel: width },
      dataDir: join(tmp, name),
      clock: systemClock,
      reports: createReportService({ db: { url: `file:${join(tmp, "none.db")}` }, clock: systemClock }),
      log: (m, e) => console.error(m, e ?? ""),
      ...(tuning ? { tuning } : {}),
    });
  const before = service("hq-before", 1, { fullCheck: "always", incremental: false });
  const after = service("hq-after", parallel);
  const round = async (what: string, chain: typeof before) => {
    const t0 = performance.now();
    const was = chain.list();
    await chain.restoreAll();
    const s = secs(t0);
    const now = chain.list();
    const restored = now.reduce((a, x, i) => a + x.restores - (was[i]?.restores ?? 0), 0);
    const applied = now.reduce((a, x, i) => a + x.applied_restores - (was[i]?.applied_restores ?? 0), 0);
    const errors = now.filter((x) => x.last_error);
    console.log(
      `${what}: ${s.toFixed(1)} s (${(s / n).toFixed(2)} s a site); ${restored} restored, ${applied} of them by applying new WAL segments${errors.length ? `; ${errors.length} errors: ${errors[0]!.last_error}` : ""}`,
    );
  };
  if (!afterOnly) await round(`before, round 1, all ${n} sites new`, before);
  await round(`after (${parallel} at once), round 1, all ${n} sites new (the day's full check)`, after);
  if (!afterOnly) await round("before, round 2, nothing moved", before);
  await round("after, round 2, nothing moved", after);
  t = performance.now();
  for (const name of names) {
    const file = join(shops, `${name}.db`);
    // Written while its Litestream runs, as at a shop.
    const had = walFiles(name);
    const db = new Database(file);
    db.run("INSERT INTO box_settings (key, value) VALUES ('bench', '1') ON CONFLICT (key) DO UPDATE SET value = value + 1");
    db.close();
    // Shipped once the replica's WAL list grew.
    for (let i = 0; i < 1200 && walFiles(name) === had; i++) await Bun.sleep(250);
  }
  console.log(`every site moved and shipped in ${secs(t).toFixed(1)} s`);
  if (!afterOnly) await round("before, round 3, every site moved", before);
  await round("after, round 3, every site moved", after);
  before.stop();
  after.stop();
} finally {
  await Promise.all([...reps.values()].map((r) => r.stop(0)));
  rmSync(tmp, { recursive: true, force: true });
}
