/**
 * WAL written per counter flow, step by step (issue 33, "less written per sale"): what every
 * shop ships to HQ over its line (Litestream copies the WAL) and what HQ restores.
 *   bun scripts/bench/wal-per-sale.ts [dataDir] [--runs 20] [--json out.json] [--before earlier.json]
 * With a data dir it writes on a copy of its ironbox.db (the reference set: deep B-trees);
 * without, on a fresh demo box. The flow is counter-flow.ts's: the real API calls through the
 * whole HTTP stack. Auto-checkpoints are off on the box's connections (db/client.ts) and the
 * idle checkpointer waits for 2 s of quiet, so during the run the WAL only grows: each step's
 * frames are the bytes appended to the -wal file. Each frame names its page, and dbstat maps
 * pages to the table or index they belong to, so the output says who wrote what.
 * `--json` saves the figures; `--before` prints them beside an earlier run's (old code).
 */
import { closeSync, copyFileSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { bootLoggedIn } from "./lib";

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const src = args[0] && !args[0].startsWith("--") ? args[0] : undefined;
const runs = Number(opt("--runs")) || 20;
const dir = mkdtempSync(join(tmpdir(), "ironbox-wal-"));
if (src) copyFileSync(join(src, "ironbox.db"), join(dir, "ironbox.db"));

const { box, token, call } = await bootLoggedIn(dir, "hq", "hq-demo-2026", 1111, src ? {} : { IRONBOX_DEMO: "1" });
const db = box.database.db;
const file = box.database.file!;
const wal = `${file}-wal`;
const one = async <T>(q: ReturnType<typeof sql>) => ((await db.all(q)) as T[])[0]!;
const garments = (await db.all(
  sql`SELECT g.id FROM garment_sub_categories g JOIN garment_categories c ON c.id = g.garment_category_id WHERE g.visible = 1 AND c.default_action_id IS NOT NULL ORDER BY g.id LIMIT 5`,
)) as { id: number }[];
const extra = await one<{ id: number }>(sql`SELECT id FROM actions WHERE name = 'Pressing'`);
const mods = (await db.all(sql`SELECT id FROM modifiers WHERE parent_id = 0 ORDER BY id LIMIT 5`)) as { id: number }[];
const customers = (await db.all(sql`SELECT id FROM customers ORDER BY id LIMIT ${runs + 3}`)) as { id: number }[];
if (!customers.length || garments.length < 5) throw new Error("no customers or garments on this box");
const pageSize = (await one<{ page_size: number }>(sql`PRAGMA page_size`)).page_size;
const frameSize = 24 + pageSize;

async function must(method: string, path: string, body?: unknown) {
  const r = await call(method, path, token, body);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
}

// Page number → the table or index it belongs to (refreshed after the run: new pages appear).
let owner = new Map<number, string>();
async function mapPages() {
  owner = new Map(((await db.all(sql`SELECT name, pageno FROM dbstat`)) as { name: string; pageno: number }[]).map((r) => [r.pageno, r.name]));
}
const walSize = () => {
  try {
    return statSync(wal).size;
  } catch {
    return 0;
  }
};
/** The page numbers of the frames appended to the WAL between two sizes. */
function framesBetween(from: number, to: number): number[] {
  const pages: number[] = [];
  const fd = openSync(wal, "r");
  const head = Buffer.alloc(4);
  try {
    // The WAL header is 32 bytes; a frame is a 24-byte header (page number first) and a page.
    for (let at = Math.max(from, 32); at + frameSize <= to; at += frameSize) {
      readSync(fd, head, 0, 4, at);
      pages.push(head.readUInt32BE(0));
    }
  } finally {
    closeSync(fd);
  }
  return pages;
}

type Step = "create ticket" | "add item" | "confirm" | "pay";
const steps: Step[] = ["create ticket", "add item", "confirm", "pay"];
const frames = new Map<Step, number[][]>(steps.map((s) => [s, []]));
async function measured<T>(step: Step, run: () => Promise<T>): Promise<T> {
  const before = walSize();
  const out = await run();
  frames.get(step)!.push(framesBetween(before, walSize()));
  return out;
}

// A first flow warms the caches (and writes the box's first-use rows); not counted.
const startSize = walSize();
for (let i = 0; i < runs + 1; i++) {
  const counted = i > 0;
  const wrap = <T>(step: Step, run: () => Promise<T>) => (counted ? measured(step, run) : run());
  const t = await wrap("create ticket", () => must("POST", "/tickets/", { customer_id: customers[i % customers.length]!.id }));
  for (const [k, g] of garments.entries())
    await wrap("add item", () =>
      must("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: g.id, actions: [extra.id], modifiers: [mods[k % mods.length]!.id] }),
    );
  await wrap("confirm", () => must("PUT", `/tickets/${t.id}/confirm`));
  const paid = await wrap("pay", () => must("PUT", `/tickets/paidFor/${t.id}?method=cash&tendered=500`));
  if (paid.balance !== 0) throw new Error(`ticket ${t.id} not paid: balance ${paid.balance}`);
}
if (walSize() < startSize) throw new Error("the WAL was reset during the run (a checkpoint): figures void");
await mapPages();

const kb = (frames: number) => ((frames * frameSize) / 1024).toFixed(1);
const result: Record<string, { frames: number; kb: number; by: Record<string, number> }> = {};
let flowFrames = 0;
console.log(`WAL per counter flow over ${runs} flows (${src ? `a copy of ${src}` : "a fresh demo box"}; page ${pageSize} B, frame ${frameSize} B)`);
for (const step of steps) {
  const all = frames.get(step)!;
  const total = all.reduce((n, f) => n + f.length, 0);
  const per = total / runs; // per flow (5 items per flow for "add item")
  flowFrames += per;
  const by: Record<string, number> = {};
  for (const f of all)
    for (const p of f) {
      const name = owner.get(p) ?? "(freed page)";
      by[name] = (by[name] ?? 0) + 1;
    }
  const top = Object.entries(by)
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => [name, n / runs] as const);
  result[step] = { frames: per, kb: (per * frameSize) / 1024, by: Object.fromEntries(top) };
  console.log(
    `  ${step.padEnd(14)} ${per.toFixed(1).padStart(6)} frames  ${kb(per).padStart(7)} KB a flow  (${top.map(([n, f]) => `${n} ${f.toFixed(1)}`).join(", ")})`,
  );
}
console.log(`  ${"whole flow".padEnd(14)} ${flowFrames.toFixed(1).padStart(6)} frames  ${kb(flowFrames).padStart(7)} KB a flow`);
const out = { runs, pageSize, source: src ?? "demo", flowFrames, flowKb: (flowFrames * frameSize) / 1024, steps: result };
const before = opt("--before");
if (before) {
  const b = JSON.parse(readFileSync(before, "utf8")) as typeof out;
  console.log(`before → after (a flow): ${b.flowKb.toFixed(1)} KB → ${out.flowKb.toFixed(1)} KB (${((out.flowKb / b.flowKb) * 100).toFixed(0)} %)`);
  for (const step of steps)
    console.log(`  ${step.padEnd(14)} ${b.steps[step]!.kb.toFixed(1).padStart(7)} KB → ${out.steps[step]!.kb.toFixed(1).padStart(7)} KB`);
}
const json = opt("--json");
if (json) writeFileSync(json, JSON.stringify(out, null, 2));
box.database.close();
rmSync(dir, { recursive: true, force: true }); // a copy of the reference set is 1.5 GB
process.exit(0);
