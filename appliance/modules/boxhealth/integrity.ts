import { join } from "node:path";
import { runChild } from "../../platform/child";
import type { IntegrityCheck } from "./model";

const CHILD = join(import.meta.dir, "integrityChild.ts");

/** Runs `PRAGMA integrity_check` on `file` in a process of its own (integrityChild.ts); bounded by `timeoutMs`. */
export async function checkIntegrity(file: string, now: () => Date, timeoutMs = 30 * 60_000): Promise<IntegrityCheck> {
  const started = now();
  const t0 = performance.now();
  // At nice 10: on a two-core box the counter's requests get the CPU first.
  const end = await runChild([process.execPath, CHILD, file], { nice: 10, timeoutMs });
  const ms = Math.round(performance.now() - t0);
  if (end.exit !== "ok") {
    // Bun prints the source around the throw; the reason is the "SQLiteError: …" line.
    const why =
      end.exit === "timeout"
        ? `it took longer than ${Math.round(timeoutMs / 60_000)} min`
        : (/^\s*\w*Error: (.*)$/m.exec(end.stderr)?.[1] ?? `the check stopped (exit ${end.code})`);
    return { ok: false, result: `The check could not run: ${why.slice(0, 300)}`, checked_at: started.toISOString(), ms };
  }
  const result = (JSON.parse(end.stdout) as { result: string[] }).result;
  const ok = result.length === 1 && result[0] === "ok";
  return { ok, result: result.join("; ").slice(0, 1000), checked_at: started.toISOString(), ms };
}
