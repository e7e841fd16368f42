/** HQ's words for what went wrong with a site's restore, and for a copy on another schema version. */
import type { SchemaVersion } from "../../../db/version";

/** Litestream's complaint in plain words; `retry` when another attempt may well succeed. */
export function explain(stderr: string, url: string): { message: string; retry: boolean } {
  const text = stderr.trim();
  if (/no matching backups|no generations found|no snapshots available/i.test(text))
    return { message: "No replica of this site has arrived yet (is its box linked to HQ?)", retry: false };
  if (/unable to authenticate|handshake failed|permission denied \(publickey/i.test(text))
    return { message: "HQ's storage refused the SFTP login (check IRONBOX_HQ_SFTP_KEY or the URL's user)", retry: false };
  if (/connection refused|no route to host|i\/o timeout|dial tcp|no such host/i.test(text))
    return { message: "HQ's storage could not be reached", retry: true };
  if (/\bEOF\b/.test(text)) return { message: "The replica changed while it was being read (an upload was under way)", retry: true };
  // The last line says what failed; a password in the URL never reaches the answer or the log.
  let last = text.split("\n").filter(Boolean).pop() ?? "no output";
  const password = (() => {
    try {
      return decodeURIComponent(new URL(url).password);
    } catch {
      return "";
    }
  })();
  if (password) last = last.replaceAll(password, "***");
  return { message: `The restore failed: ${last.replace(/^\S+ \S+ /, "").slice(0, 300)}`, retry: true };
}

/** What a copy on another schema version means for HQ's reports, in plain words; null when HQ reads it. */
export function schemaNote(schema: SchemaVersion | null, expected: number): string | null {
  if (!schema || schema.status === "current") return null;
  const at = `schema ${schema.version ?? "none"}${schema.release ? `, release ${schema.release}` : ""}`;
  if (schema.status === "ahead")
    return `This site runs a newer release than HQ (${at}; HQ reads schema ${expected}): reports for this site wait until HQ upgrades`;
  if (schema.status === "behind") return `This site is on an older release (${at}; HQ reads schema ${expected}): reports for this site wait until it upgrades`;
  return `HQ cannot tell this copy's schema version (${at}): reports for this site wait until it upgrades`;
}
