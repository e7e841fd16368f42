/** Check on the Link to HQ screen: tries HQ's storage now with the current settings. */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseLogLine, plainError, replicaOnlyConfig } from "../../../drivers/replication/litestream";
import { runChild } from "../../platform/child";
import type { LinkCheck } from "./model";
import type { LinkSettings } from "./settings";

/** Lists the replica's snapshots (connects and logs in); the answer in plain words. */
export async function checkLink(o: {
  bin: string;
  dataDir: string;
  dbPath: string | null;
  settings: LinkSettings;
  log: (m: string) => void;
}): Promise<LinkCheck> {
  const set = o.settings;
  if (!set.url || !o.dbPath) return { ok: false, message: "The link is off: no replica URL is set" };
  const cfg = join(o.dataDir, "litestream-check.yml");
  writeFileSync(cfg, replicaOnlyConfig({ dbPath: o.dbPath, target: { url: set.url, keyPath: set.keyPath } }), { mode: 0o600 });
  const end = await runChild([o.bin, "snapshots", "-config", cfg, "-no-expand-env", o.dbPath], { timeoutMs: 20_000 }).finally(() =>
    rmSync(cfg, { force: true }),
  );
  if (end.exit === "timeout" || end.exit === "killed") return { ok: false, message: "HQ's server is not answering" };
  // `litestream snapshots` logs what went wrong and still exits 0: its ERROR line is the answer.
  const error = `${end.stderr}\n${end.stdout}`
    .split("\n")
    .map(parseLogLine)
    .find((l) => l?.level === "ERROR");
  if (end.exit !== "ok" || error) {
    const raw = error ? (error.attrs.error ?? error.msg) : ((end.stderr || end.stdout).trim().split("\n").pop() ?? "");
    o.log(`hqlink: check failed: ${raw}`);
    return { ok: false, message: plainError(raw) };
  }
  const snapshots = end.stdout.trim().split("\n").length - 1;
  return { ok: true, message: `HQ's storage answered: ${snapshots} snapshot${snapshots === 1 ? "" : "s"} of this box there` };
}
