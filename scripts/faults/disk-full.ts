/**
 * Disk full during counter writes (QUALITY.md, reliability), as root:
 *   bun scripts/faults/disk-full.ts [--fs ext4|tmpfs] [--margin-kb 1536] [--workers 2] [--port 5173] [--short: the same, one run]
 * The real appliance runs with its data folder on a small file system of its own, so the disk
 * really fills (ENOSPC, which SQLite reports as SQLITE_FULL): by default an ext4 image mounted
 * through a loop device (as a box's disk), filled up to the margin by a filler file; with
 * `--fs tmpfs`, a tmpfs shrunk to what is used plus the margin. Counter writes (open a ticket,
 * add items, pay in full) go on until the disk is full; every refused write must answer 507
 * "The box's disk is full…" (or 503 for an I/O error). Then space is freed (the filler file
 * deleted, or the tmpfs remounted bigger), and the same box, not restarted, must take writes
 * again. Finally, with the
 * box stopped: `PRAGMA integrity_check` ok, every acknowledged row present, every total
 * consistent (scripts/faults/lib.ts). Bounded in writes and time; the mount is always removed.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DISK_FAILING, DISK_FULL } from "../../appliance/http/errors";
import { arg, type Box, call, check, newAcked, startBox } from "./lib";

const fs = process.argv.includes("tmpfs") ? "tmpfs" : "ext4";
const marginKb = arg("margin-kb", 1536);
const workers = arg("workers", 2);
const MAX_WRITES = 20_000;
const MAX_MS = 120_000;
if (process.getuid?.() !== 0) {
  console.error("disk-full.ts mounts a small file system: run it as root");
  process.exit(2);
}
const run = (cmd: string[]) => {
  const r = spawnSync(cmd[0]!, cmd.slice(1), { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr}`);
};
const work = mkdtempSync(join(tmpdir(), "ironbox-diskfull-"));
const dir = join(work, "data");
const image = join(work, "disk.img");
const filler = join(dir, "filler");
mkdirSync(dir, { mode: 0o700 });
const port = arg("port", 5173);
const acked = newAcked();
const refused = new Map<string, number>();
let unexpected = 0;
let box: Box | null = null;
let ok = false;

/** One write: true when acknowledged; a refusal is counted by status and checked for its message. */
async function write(method: string, path: string, token: string, body?: unknown): Promise<any | null> {
  const r = await fetch(box!.base + path, {
    method,
    headers: { authorization: `token ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await r.json()) as { success: boolean; data: any; message?: string };
  if (r.ok && json.success) return json.data;
  const expected = (r.status === 507 && json.message === DISK_FULL) || (r.status === 503 && json.message === DISK_FAILING);
  if (!expected) {
    unexpected++;
    console.log(`  unexpected answer to ${method} ${path}: ${r.status} ${json.message}`);
  }
  refused.set(String(r.status), (refused.get(String(r.status)) ?? 0) + 1);
  return null;
}

/** Counter flows until `stop()` says so: ticket, 1-3 items, pay in full. Returns the number of flows completed. */
async function counter(token: string, customer: number, garments: number[], stop: () => boolean) {
  let flows = 0;
  const client = async (w: number) => {
    for (let n = 0; !stop(); n++) {
      const t = await write("POST", "/tickets/", token, { customer_id: customer });
      if (!t) continue;
      acked.tickets.add(t.id);
      acked.writes++;
      let complete = true;
      for (const g of garments.slice(0, 1 + ((n + w) % garments.length))) {
        const item = await write("POST", "/ticketSubCategory/", token, { ticket_id: t.id, garment_sub_category_id: g });
        if (!item) {
          complete = false;
          break;
        }
        acked.items.add(item[0].id);
        acked.writes++;
      }
      const paid = complete ? await write("PUT", `/tickets/paidFor/${t.id}`, token) : null;
      if (paid) {
        acked.paid.set(t.id, Math.round(paid.total_paid * 100));
        acked.writes++;
        flows++;
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, w) => client(w)));
  return flows;
}

const usedKb = () => {
  const s = statfsSync(dir);
  return Math.ceil(((s.blocks - s.bfree) * s.bsize) / 1024);
};

try {
  if (fs === "tmpfs") run(["mount", "-t", "tmpfs", "-o", "size=64m,mode=0700", "tmpfs", dir]);
  else {
    // 64 MB of ext4 with no blocks reserved for root (the box may run as root).
    run(["truncate", "-s", "64M", image]);
    run(["mkfs.ext4", "-q", "-F", "-m", "0", image]);
    run(["mount", "-o", "loop", image, dir]);
  }
  box = await startBox(dir, port, true);
  const agent = await call(box.base, "POST", "/login/agent", undefined, { user_name: "hq", password: "hq-demo-2026" });
  const token = await call(box.base, "POST", "/login/employee", agent, { pin: 1111 });
  const garments = ((await call(box.base, "GET", "/garmentSubCategories/", token)) as { id: number; name: string }[])
    .filter((g) => ["Suit 2pc", "Shirt", "Dress"].includes(g.name))
    .map((g) => g.id);
  const customer = (await call(box.base, "POST", "/customers/", token, { full_name: "Disk Full" })).id as number;
  await Bun.sleep(2500); // the idle checkpoint folds the demo data's WAL into the file

  // Leave only a margin free: the disk fills after a few hundred writes.
  if (fs === "tmpfs") {
    const size = usedKb() + marginKb;
    run(["mount", "-o", `remount,size=${size}k`, dir]);
    console.log(`data folder on a ${size} KB tmpfs (${usedKb()} KB used by the demo box)`);
  } else {
    const s = statfsSync(dir);
    const freeKb = Math.floor((s.bavail * s.bsize) / 1024);
    run(["fallocate", "-l", `${freeKb - marginKb}K`, filler]);
    console.log(`data folder on a 64 MB ext4 image behind a loop device, ${freeKb - marginKb} KB taken by a filler file, ${marginKb} KB left`);
  }

  const t0 = performance.now();
  let firstRefusalMs = 0;
  const fullFlows = await counter(token, customer, garments, () => {
    const total = [...refused.values()].reduce((a, b) => a + b, 0);
    if (total && !firstRefusalMs) firstRefusalMs = performance.now() - t0;
    return total >= 40 || acked.writes >= MAX_WRITES || performance.now() - t0 > MAX_MS;
  });
  const ackedWhileFilling = acked.writes;
  const refusals = [...refused.values()].reduce((a, b) => a + b, 0);
  console.log(
    `filling: ${ackedWhileFilling} writes acknowledged (${fullFlows} whole counter flows), first refusal after ${(firstRefusalMs / 1000).toFixed(1)} s; refused ${refusals}: ${[...refused].map(([s, n]) => `${n} × ${s}`).join(", ")}; unexpected answers: ${unexpected}`,
  );

  // Room again: the same box, not restarted, must take writes.
  if (fs === "tmpfs") run(["mount", "-o", "remount,size=64m", dir]);
  else rmSync(filler);
  const before = acked.writes;
  const refusedBefore = refusals;
  await counter(token, customer, garments, () => acked.writes - before >= 60);
  const refusedAfter = [...refused.values()].reduce((a, b) => a + b, 0) - refusedBefore;
  const health = await fetch(`${box.base}/health`).then((r) => r.status);
  console.log(
    `space freed (${fs === "tmpfs" ? "remounted at 64 MB" : "filler file deleted"}), no restart: ${acked.writes - before} writes acknowledged, ${refusedAfter} refused; health ${health}`,
  );

  box.child.kill("SIGTERM");
  await box.child.exited;
  box = null;
  const r = await check(join(dir, "ironbox.db"), acked);
  console.log(
    `after: integrity ${r.integrity}; ${acked.tickets.size} tickets, ${acked.items.size} items, ${acked.paid.size} payments acknowledged; lost ${r.lost}; totals off ${r.totalsOff}`,
  );
  ok = refusals > 0 && unexpected === 0 && refusedAfter === 0 && health === 200 && r.ok;
  console.log(
    ok ? "disk full: every refused write answered 507/503 with the message, nothing half written, the box served again without a restart" : "disk full: FAILED",
  );
} finally {
  if (box) {
    box.child.kill("SIGKILL");
    await box.child.exited;
  }
  // The check's connection may close a moment after; then a lazy unmount detaches it.
  for (let i = 0; i < 20 && spawnSync("umount", [dir]).status !== 0; i++) await Bun.sleep(100);
  if (spawnSync("mountpoint", ["-q", dir]).status === 0) spawnSync("umount", ["-l", dir]);
  rmSync(work, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
