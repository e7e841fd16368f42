/**
 * A block of loopback ports for one browser-test run (E2E_PORT .. E2E_PORT + E2E_SPAN - 1:
 * its boxes, the SMS phone stand-in and the boxes the specs start themselves; see
 * ui/e2e/pages/env.ts), claimed so that two `npm test` runs side by side never share one.
 *
 *   bun scripts/e2e/ports.ts claim <owner pid>   prints the block's first port
 *   bun scripts/e2e/ports.ts release <port>      gives it back
 *
 * A block is claimed by making /tmp/ironbox-e2e-ports/<port> (mkdir is atomic: of two runs
 * that pick the same block, one gets it) holding the owner's pid, and only when nothing
 * listens on any of its ports. A claim whose owner has gone (a run killed before its trap ran)
 * is taken over. Blocks are picked below Linux's ephemeral range (32768+), so a port is not
 * held by some process's outgoing connection either.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { E2E_SPAN } from "../../ui/e2e/pages/env";

const CLAIMS = join(tmpdir(), "ironbox-e2e-ports");
const LOW = 10_000;
const HIGH = 30_000;

function bindable(port: number): Promise<boolean> {
  return new Promise((res) => {
    const srv = createServer();
    srv.once("error", () => res(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => res(true)));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function tryClaim(base: number, owner: number): boolean {
  const dir = join(CLAIMS, String(base));
  try {
    mkdirSync(dir);
  } catch {
    let holder = 0;
    try {
      holder = Number(readFileSync(join(dir, "pid"), "utf8"));
    } catch {}
    // Held by a live run, or being made this instant (no pid yet): not ours.
    if (!holder || alive(holder)) return false;
    rmSync(dir, { recursive: true, force: true });
    return tryClaim(base, owner);
  }
  writeFileSync(join(dir, "pid"), String(owner));
  return true;
}

export async function claim(owner: number): Promise<number> {
  mkdirSync(CLAIMS, { recursive: true });
  for (let attempt = 0; attempt < 200; attempt++) {
    // Blocks on a grid of E2E_SPAN, so two claims either are the same block or do not overlap.
    const base = LOW + E2E_SPAN * Math.floor((Math.random() * (HIGH - LOW)) / E2E_SPAN);
    if (!tryClaim(base, owner)) continue;
    let free = true;
    for (let p = base; p < base + E2E_SPAN && free; p++) free = await bindable(p);
    if (free) return base;
    release(base);
  }
  throw new Error(`no free block of ${E2E_SPAN} ports between ${LOW} and ${HIGH}`);
}

export function release(base: number): void {
  rmSync(join(CLAIMS, String(base)), { recursive: true, force: true });
}

if (import.meta.main) {
  const [cmd, arg] = process.argv.slice(2);
  if (cmd === "claim") console.log(await claim(Number(arg) || process.ppid));
  else if (cmd === "release") release(Number(arg));
  else {
    console.error("usage: bun scripts/e2e/ports.ts claim <owner pid> | release <port>");
    process.exit(2);
  }
}
