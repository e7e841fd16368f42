/**
 * No acknowledged write is ever lost (QUALITY.md, reliability): kill -9.
 *   bun scripts/faults/kill9.ts [--runs 20] [--workers 4] [--short: 2 runs, 2 workers]
 * Runs the real appliance on one data dir, drives a burst of counter writes at it from
 * several clients (open a ticket, add items, pay in full) and `kill -9`s it at a random
 * moment. With the box down, checks the database (scripts/faults/lib.ts: integrity, every
 * acknowledged ticket, item and payment, every total consistent); the box then restarts on
 * the same data (WAL recovery included) for the next run. Exits non-zero on any failure.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { arg, burst, check, newAcked, startBox } from "./lib";
import { freePort } from "../../appliance/test/ports";

const runs = arg("runs", 20, 2);
const workers = arg("workers", 4, 2);
const dir = mkdtempSync(join(tmpdir(), "ironbox-kill9-"));
// Asked of the kernel (appliance/test/ports.ts): a run beside this one never takes the same.
const port = await freePort(1);
const acked = newAcked();
let failures = 0;
for (let run = 1; run <= runs; run++) {
  const box = await startBox(dir, port, run === 1);
  const stop = await burst(box, acked, workers, `kill9 ${run}`);
  await Bun.sleep(200 + Math.random() * 1800);
  box.child.kill("SIGKILL");
  await box.child.exited;
  await stop();
  const r = await check(join(dir, "ironbox.db"), acked);
  if (!r.ok) failures++;
  console.log(
    `run ${String(run).padStart(3)}: integrity ${r.integrity}; acknowledged so far ${acked.tickets.size} tickets, ${acked.items.size} items, ${acked.paid.size} payments; lost ${r.lost}; totals off ${r.totalsOff}${r.ok ? "" : "  <-- FAIL"}`,
  );
}
console.log(
  `${runs} kill -9 runs, ${acked.writes} acknowledged writes, all checked after every run: ${failures ? `${failures} runs FAILED` : "none lost, integrity ok, every total consistent"}`,
);
process.exit(failures ? 1 : 0);
