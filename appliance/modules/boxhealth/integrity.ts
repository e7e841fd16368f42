import { join } from "node:path";
import { runChild } from "../../platform/child";
import { describeTotals, type TotalsCheck } from "../money/check";
import type { IntegrityCheck } from "./model";

const CHILD = join(import.meta.dir, "integrityChild.ts");

/**
 * Runs `PRAGMA integrity_check` on `file`, then the check that every total_paid equals its
 * payment rows, in a process of its own (integrityChild.ts); bounded by `timeoutMs`. Either
 * finding fails the check; `result` says which in a person's words.
 */
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
    return { ok: false, result: `The check could not run: ${why.slice(0, 300)}`, checked_at: started.toISOString(), ms, totals: null };
  }
  const out = JSON.parse(end.stdout) as { result: string[]; totals: TotalsCheck | null };
  const sound = out.result.length === 1 && out.result[0] === "ok";
  const totals = out.totals ? { ok: out.totals.ok, count: out.totals.count, first: out.totals.first.map((m) => `${m.kind} ${m.id}`) } : null;
  const ok = sound && (totals?.ok ?? false);
  const result = !sound ? out.result.join("; ") : out.totals && !out.totals.ok ? describeTotals(out.totals) : "ok";
  return { ok, result: result.slice(0, 1000), checked_at: started.toISOString(), ms, totals };
}
