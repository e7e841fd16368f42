/**
 * HQ's lag with many sites: `bun scripts/bench/hq-sites.ts <reference data dir> [--sites 20]`.
 * Every site is a copy of the reference database shipped by a real `litestream replicate` to
 * a file:// storage folder; HQ's chain service (real `litestream restore`, the real check)
 * then runs restore rounds: the first (every copy new), one with nothing moved, and one with
 * one site moved. HQ's worst lag for a change is about one interval plus one round.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { createChainService } from "../../appliance/modules/chain/service";
import { createReportService } from "../../appliance/modules/reports/service";
import { systemClock } from "../../appliance/platform/clock";
import { replicate } from "../../appliance/test/chainSites";

const args = process.argv.slice(2);
const ref = args[0];
if (!ref) throw new Error("usage: bun scripts/bench/hq-sites.ts <reference data dir> [--sites 20]");
const n = Number(args[args.indexOf("--sites") + 1] || 20) || 20;
const tmp = mkdtempSync(join(tmpdir(), "ironbox-hq-sites-"));
const storage = join(tmp, "storage");
const shops = join(tmp, "shops");
mkdirSync(storage);
mkdirSync(shops);
const names = Array.from({ length: n }, (_, i) => `site-${String(i + 1).padStart(2, "0")}`);

try {
  let t = performance.now();
  for (const name of names) {
    const file = join(shops, `${name}.db`);
    copyFileSync(join(ref, "ironbox.db"), file);
    new Database(file).run("PRAGMA journal_mode = WAL");
    await (await replicate(file, join(storage, name), 600_000)).stop();
    // HQ reads only the storage; keep one shop's file (site-01 moves in round 3) to spare the disk.
    if (name !== names[0]) for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  }
  console.log(`shipped ${n} sites in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const chain = createChainService({
    hq: { sites: [], storage, restoreEverySec: 0, sftpKey: null },
    dataDir: join(tmp, "hq"),
    clock: systemClock,
    reports: createReportService({ db: { url: `file:${join(tmp, "none.db")}` }, clock: systemClock }),
    log: (m, e) => console.error(m, e ?? ""),
  });
  const round = async (what: string) => {
    const t0 = performance.now();
    await chain.restoreAll();
    const s = (performance.now() - t0) / 1000;
    const errors = chain.list().filter((x) => x.last_error);
    console.log(`${what}: ${s.toFixed(1)} s (${(s / n).toFixed(2)} s a site)${errors.length ? `, ${errors.length} errors: ${errors[0]!.last_error}` : ""}`);
    return s;
  };
  await round(`round 1, all ${n} sites new`);
  await round("round 2, nothing moved");
  t = performance.now();
  const moved = join(shops, `${names[0]}.db`);
  const db = new Database(moved);
  db.run("INSERT INTO box_settings (key, value) VALUES ('bench', '1') ON CONFLICT (key) DO UPDATE SET value = value + 1");
  db.close();
  // Shipped once the replica's WAL list grew (a restarted Litestream may first take a while).
  const walFiles = () =>
    Number(
      Bun.spawnSync(["sh", "-c", `find "${join(storage, names[0]!)}" -name '*.wal.lz4' | wc -l`])
        .stdout.toString()
        .trim(),
    );
  const before = walFiles();
  const rep = await replicate(moved, join(storage, names[0]!), 600_000);
  for (let i = 0; i < 1200 && walFiles() === before; i++) await Bun.sleep(250);
  await rep.stop();
  console.log(`site-01 moved and shipped in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await round("round 3, one site moved");
  console.log(`restores: ${chain.list().reduce((a, x) => a + x.restores, 0)}, unchanged rounds: ${chain.list().reduce((a, x) => a + x.unchanged_rounds, 0)}`);
  chain.stop();
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
