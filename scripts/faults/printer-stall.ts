/**
 * A stalled printer never blocks the counter (QUALITY.md, reliability).
 *   bun scripts/faults/printer-stall.ts
 * Boots the real appliance with demo data, sets up a label printer whose device is a FIFO
 * that a process opened and never reads (a printer that stopped taking data: off-line, out of
 * paper), and prints label batches to it until the device is full. Measures, through the
 * whole HTTP stack: how long the print requests take to answer, `GET /tickets/{id}` latency
 * before and during the stall, and how long until the journal fails the stuck job with its
 * reason. Exits non-zero if a print request took ≥ 1 s, the counter slowed more than 5×, or
 * the job was not failed within the timeout plus 2 s.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bootLoggedIn, fmt, percentiles } from "../bench/lib";

const TIMEOUT_MS = 10_000; // the journal's default send timeout
const dir = mkdtempSync(join(tmpdir(), "ironbox-fault-"));
const { box, token, call } = await bootLoggedIn(dir, "hq", "hq-demo-2026", 1111, {
  IRONBOX_DEMO: "1",
  IRONBOX_MDNS: "0",
  IRONBOX_SYSFS_ROOT: join(dir, "sys"),
  IRONBOX_DEV_ROOT: join(dir, "dev"),
});
const ok = async (method: string, path: string, body?: unknown) => {
  const r = await call(method, path, token, body);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};

// The printer: a FIFO under the test device root, held open by a reader that never reads.
mkdirSync(join(dir, "dev/usb"), { recursive: true });
const fifo = join(dir, "dev/usb/lp0");
Bun.spawnSync(["mkfifo", fifo]);
const stalled = Bun.spawn(["sh", "-c", `exec 3<"${fifo}"; sleep 120`]);
await Bun.sleep(100);
await ok("PUT", "/printers/", [{ id: "labels", name: "Stalled label printer", language: "PPLZ", target: { kind: "usblp", path: fifo } }]);

const garments = await ok("GET", "/garmentSubCategories/");
const suit = garments.find((g: { name: string }) => g.name === "Suit 2pc").id;
const customer = await ok("POST", "/customers/", { full_name: "Stall Test" });
const ticket = await ok("POST", "/tickets/", { customer_id: customer.id });
for (let i = 0; i < 10; i++) await ok("POST", "/ticketSubCategory/", { ticket_id: ticket.id, garment_sub_category_id: suit });

async function openTicketTimes(n: number) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await ok("GET", `/tickets/${ticket.id}`);
    out.push(performance.now() - t0);
    await Bun.sleep(5);
  }
  return out;
}

const before = percentiles(await openTicketTimes(200));
// 20 label batches of 20 labels: more than the 64 KiB a pipe holds, so the device fills and stalls.
const printTimes: number[] = [];
let jobs: number[] = [];
for (let i = 0; i < 20; i++) {
  const t0 = performance.now();
  jobs = jobs.concat((await ok("POST", "/print/labels", { ticket_id: ticket.id, printer: "labels" })).jobs);
  printTimes.push(performance.now() - t0);
}
const stallStart = performance.now();
const during = percentiles(await openTicketTimes(200));
let failedAfter = Number.NaN;
let reason = "";
while (performance.now() - stallStart < TIMEOUT_MS + 5000) {
  const failed = (await ok("GET", `/printJobs/?ticket_id=${ticket.id}&limit=500`)).find(
    (j: { status: string; error: string }) => j.status === "failed" && !j.error.startsWith("Not sent"),
  );
  if (failed) {
    failedAfter = performance.now() - stallStart;
    reason = failed.error;
    break;
  }
  await Bun.sleep(50);
}
const all = await ok("GET", `/printJobs/?ticket_id=${ticket.id}&limit=500`);
const tally = new Map<string, number>();
for (const j of all as { status: string }[]) tally.set(j.status, (tally.get(j.status) ?? 0) + 1);
const counts = [...tally].map(([s, n]) => `${s} ${n}`);
stalled.kill();

const print = percentiles(printTimes);
console.log(`labels sent: ${jobs.length} jobs in 20 requests; journal now: ${counts.join(", ")}`);
console.log(`POST /print/labels (20 labels) answered: p50 ${fmt(print.p50)}, max ${fmt(print.max)} (bar < 1000 ms)`);
console.log(`GET /tickets/{id} before the stall: p50 ${fmt(before.p50)}, p95 ${fmt(before.p95)}`);
console.log(`GET /tickets/{id} while the printer is stalled: p50 ${fmt(during.p50)}, p95 ${fmt(during.p95)} (${(during.p95 / before.p95).toFixed(2)}× before)`);
console.log(`stuck job failed after ${(failedAfter / 1000).toFixed(2)} s (timeout ${TIMEOUT_MS / 1000} s): "${reason}"`);
const bad = print.max >= 1000 || during.p95 > 5 * Math.max(before.p95, 2) || !(failedAfter <= TIMEOUT_MS + 2000);
console.log(bad ? "FAIL" : "OK: the stalled printer did not block the counter");
box.stop();
process.exit(bad ? 1 : 0);
