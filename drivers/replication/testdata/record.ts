/**
 * Records what Litestream 0.3.13 really says, for the parsers' tests (litestream.test.ts):
 * `bun drivers/replication/testdata/record.ts`. A WAL database replicated to a folder takes
 * one write, then an 8 s burst that makes Litestream checkpoint and move to new WAL segments,
 * then sits idle. Written here: the log, the metrics (one segment; idle after the burst) and
 * the shadow WAL files at each point. The temporary folder's path becomes /var/lib/ironbox.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LITESTREAM_BIN, replicateConfig } from "../litestream";

const out = import.meta.dir;
const dir = mkdtempSync(join(tmpdir(), "ironbox-record-"));
const dbPath = join(dir, "ironbox.db");
const port = await new Promise<number>((res) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const p = (s.address() as { port: number }).port;
    s.close(() => res(p));
  });
});
const db = new Database(dbPath);
db.exec("PRAGMA journal_mode=WAL; CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB)");
writeFileSync(join(dir, "ls.yml"), replicateConfig({ dbPath, target: { url: `file://${dir}/replica` }, metricsAddr: `127.0.0.1:${port}` }));
const child = Bun.spawn([LITESTREAM_BIN, "replicate", "-config", join(dir, "ls.yml"), "-no-expand-env"], { stdout: "pipe", stderr: "pipe" });
const logText = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]).then(([a, b]) => a + b);
const clean = (s: string) => s.replaceAll(dir, "/var/lib/ironbox");
const metrics = async () => clean(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
function shadow() {
  const meta = join(dir, ".ironbox.db-litestream");
  const generation = readFileSync(join(meta, "generation"), "utf8").trim();
  const wal = join(meta, "generations", generation, "wal");
  return { generation, files: readdirSync(wal).map((f) => ({ name: f, size: statSync(join(wal, f)).size })) };
}
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 100 && !ok(); i++) await Bun.sleep(100);
};
await until(() => {
  try {
    return shadow().files.length > 0;
  } catch {
    return false;
  }
});
db.exec("INSERT INTO t(v) VALUES (randomblob(100))");
await Bun.sleep(2000);
const one = { metrics: await metrics(), shadow: shadow() };
for (let i = 0; i < 80; i++) {
  db.exec("BEGIN");
  for (let j = 0; j < 40; j++) db.exec("INSERT INTO t(v) VALUES (randomblob(3000))");
  db.exec("COMMIT");
  await Bun.sleep(100);
}
await Bun.sleep(4000);
const idle = { metrics: await metrics(), shadow: shadow() };
child.kill("SIGTERM");
await child.exited;
writeFileSync(join(out, "litestream-burst.log"), clean(await logText));
writeFileSync(join(out, "metrics-one-segment.txt"), one.metrics);
writeFileSync(join(out, "metrics-idle-after-burst.txt"), idle.metrics);
writeFileSync(join(out, "shadow-wal.json"), `${JSON.stringify({ one_segment: one.shadow, idle_after_burst: idle.shadow }, null, 2)}\n`);
db.close();
rmSync(dir, { recursive: true, force: true });
