/**
 * No acknowledged write is ever lost (QUALITY.md, reliability): a simulated power cut.
 *   bun scripts/faults/power-cut.ts [--runs 10] [--workers 4] [--short: 1 run, 2 workers]     (root: loop devices, mount)
 * The box's data dir lives on an ext4 image mounted through a loop device. The real appliance
 * takes a burst of counter writes; at a random moment it is frozen (`kill -STOP`, nothing more
 * reaches the file system) and the image is copied: the copy holds what the disk had, without
 * what sat in the page cache, as after a power cut. The copy is mounted (ext4 replays its
 * journal) and checked like after kill -9 (scripts/faults/lib.ts). The frozen box is then
 * killed and restarted on the live image for the next run. Exits non-zero on any failure.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { arg, burst, check, newAcked, startBox } from "./lib";
import { freePort } from "../../appliance/test/ports";

const runs = arg("runs", 10, 1);
const workers = arg("workers", 4, 2);
const root = mkdtempSync(join(tmpdir(), "ironbox-powercut-"));
const image = join(root, "disk.img");
const live = join(root, "live");
const after = join(root, "after");
const sh = (...cmd: string[]) => {
  const r = Bun.spawnSync(cmd, { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr.toString().trim()}`);
};
sh("truncate", "-s", "512M", image);
sh("mkfs.ext4", "-q", image);
mkdirSync(live);
mkdirSync(after);
sh("mount", "-o", "loop", image, live);
// Asked of the kernel (appliance/test/ports.ts): a run beside this one never takes the same.
const port = await freePort(1);
const acked = newAcked();
let failures = 0;
try {
  for (let run = 1; run <= runs; run++) {
    const box = await startBox(join(live, "data"), port, run === 1);
    const stop = await burst(box, acked, workers, `power cut ${run}`);
    await Bun.sleep(300 + Math.random() * 1500);
    box.child.kill("SIGSTOP"); // frozen: from here nothing more is written
    // What the box acknowledged up to the freeze must be on the disk now.
    const snapshot = join(root, "cut.img");
    copyFileSync(image, snapshot);
    sh("mount", "-o", "loop", snapshot, after);
    let r: Awaited<ReturnType<typeof check>>;
    try {
      r = await check(join(after, "data", "ironbox.db"), acked);
    } finally {
      sh("umount", "-l", after); // lazily: the check's closed connections may still hold the files a moment
      rmSync(snapshot);
    }
    box.child.kill("SIGKILL");
    await box.child.exited;
    await stop();
    if (!r.ok) failures++;
    console.log(
      `run ${String(run).padStart(3)}: integrity ${r.integrity}; acknowledged so far ${acked.tickets.size} tickets, ${acked.items.size} items, ${acked.paid.size} payments; lost ${r.lost}; totals off ${r.totalsOff}${r.ok ? "" : "  <-- FAIL"}`,
    );
  }
} finally {
  for (const m of [after, live]) Bun.spawnSync(["umount", "-l", m]);
  try {
    rmSync(root, { recursive: true, force: true });
  } catch (e) {
    console.error(`could not remove ${root}: ${(e as Error).message}`);
  }
}
console.log(
  `${runs} simulated power cuts, ${acked.writes} acknowledged writes, all checked after every cut: ${failures ? `${failures} runs FAILED` : "none lost, integrity ok, every total consistent"}`,
);
process.exit(failures ? 1 : 0);
