/**
 * The box serving while `npm run import` writes into its database (issue 32: "the box may run
 * meanwhile"), and the importer's memory.
 *   bun scripts/bench/import-beside.ts <source data dir> <port> [--alone 10] [--max 1800]
 * A box serves the source data dir as the old system on <port>; a fresh box (admin/admin-pass-1,
 * PIN 9999) serves on <port>+1 and keeps serving while the command-line import fills its
 * database. A tablet reads (`GET /tickets/?limit=20`, every 100 ms) and writes (a new customer,
 * every 500 ms) on the target box: first `--alone` seconds without the import (the baseline),
 * then during it. Prints each one's p50/p99/max alone and during, the importer's peak RSS
 * (/usr/bin/time) and RSS along the way, and the largest WAL seen. Bounded by `--max` seconds.
 */
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, startBox } from "../faults/lib";
import { fmt, percentiles } from "./lib";

const [srcDir, portArg] = process.argv.slice(2);
if (!srcDir || !portArg) throw new Error("usage: bun scripts/bench/import-beside.ts <source data dir> <port> [--alone 10] [--max 1800]");
const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1]) || d;
const port = Number(portArg);
const dst = mkdtempSync(join(tmpdir(), "ironbox-import-beside-"));
const source = await startBox(srcDir, port, false, { IRONBOX_HTTPS: "0" });
const admin = { IRONBOX_HTTPS: "0", IRONBOX_ADMIN_USER: "admin", IRONBOX_ADMIN_PASSWORD: "admin-pass-1", IRONBOX_ADMIN_PIN: "9999" };
const box = await startBox(dst, port + 1, false, admin);
const stopAll = () => [source.child, box.child].forEach((c) => c.kill());
process.on("exit", stopAll);
const agent = await call(box.base, "POST", "/login/agent", undefined, { user_name: "admin", password: "admin-pass-1" });
const token = await call(box.base, "POST", "/login/employee", agent, { pin: 9999 });
const wal = join(dst, "ironbox.db-wal");

/** Reads and writes on the target box until `until()` says stop; latencies in ms. */
async function tablet(until: () => boolean) {
  const reads: number[] = [];
  const writes: number[] = [];
  let n = 0;
  const timed = async (into: number[], f: () => Promise<unknown>) => {
    const t0 = performance.now();
    await f();
    into.push(performance.now() - t0);
  };
  const reader = (async () => {
    while (!until()) {
      const next = performance.now() + 100;
      await timed(reads, () => call(box.base, "GET", "/tickets/?limit=20", token));
      await Bun.sleep(Math.max(0, next - performance.now()));
    }
  })();
  const writer = (async () => {
    while (!until()) {
      const next = performance.now() + 500;
      await timed(writes, () => call(box.base, "POST", "/customers/", token, { full_name: `Beside ${n++}` }));
      await Bun.sleep(Math.max(0, next - performance.now()));
    }
  })();
  await Promise.all([reader, writer]);
  return { reads, writes };
}

const line = (label: string, s: number[]) => {
  const p = percentiles(s);
  return `${label.padEnd(22)} n=${String(p.n).padStart(5)}  p50 ${fmt(p.p50)}  p99 ${fmt(p.p99)}  max ${fmt(p.max)}`;
};

const aloneUntil = performance.now() + arg("alone", 10) * 1000;
const alone = await tablet(() => performance.now() > aloneUntil);

const t0 = performance.now();
const importer = Bun.spawn(
  [
    "/usr/bin/time",
    "-f",
    "maxrss_kb=%M",
    process.execPath,
    join(import.meta.dir, "../import.ts"),
    "--from",
    source.base.replace(/\/api\/v1$/, ""),
    "--user",
    "hq",
    "--pin",
    "1111",
  ],
  { env: { ...process.env, IRONBOX_DATA_DIR: dst, DATABASE_URL: "", IRONBOX_IMPORT_PASSWORD: "hq-demo-2026" }, stdout: "pipe", stderr: "pipe" },
);
const maxMs = arg("max", 1800) * 1000;
const killer = setTimeout(() => importer.kill("SIGKILL"), maxMs);
let done = false;
const rss: { s: number; mb: number }[] = [];
let walMax = 0;
const sampler = setInterval(() => {
  if (existsSync(wal)) walMax = Math.max(walMax, statSync(wal).size);
  try {
    const kid = readFileSync(`/proc/${importer.pid}/task/${importer.pid}/children`, "utf8").trim().split(" ")[0];
    const kb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${kid}/status`, "utf8"))?.[1]);
    if (kb) rss.push({ s: Math.round((performance.now() - t0) / 1000), mb: Math.round(kb / 1024) });
  } catch {}
}, 500);
const [during, out, err] = await Promise.all([
  tablet(() => done),
  new Response(importer.stdout).text(),
  new Response(importer.stderr).text(),
  importer.exited.then(() => (done = true)),
]);
clearTimeout(killer);
clearInterval(sampler);

console.log(
  out
    .split("\n")
    .filter((l) => /^(Import run|ticket |Money)/.test(l))
    .join("\n"),
);
console.log(line("reads alone", alone.reads));
console.log(line("reads during import", during.reads));
console.log(line("writes alone", alone.writes));
console.log(line("writes during import", during.writes));
console.log(
  `import: ${((performance.now() - t0) / 1000).toFixed(0)} s, importer peak RSS ${Math.round(Number(/maxrss_kb=(\d+)/.exec(err)?.[1]) / 1024)} MiB, largest WAL seen ${(walMax / 2 ** 20).toFixed(1)} MiB, WAL at the end ${existsSync(wal) ? statSync(wal).size : 0} bytes`,
);
const step = Math.max(1, Math.floor(rss.length / 8));
console.log(
  `importer RSS (s: MiB): ${rss
    .filter((_, i) => i % step === 0 || i === rss.length - 1)
    .map((r) => `${r.s}: ${r.mb}`)
    .join(", ")}`,
);
stopAll();
process.exit(0);
