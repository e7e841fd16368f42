import { printDate } from "../../../appliance/domain/format";
import type { ReportFormat, ReportName } from "../../../appliance/modules/reports/model";
import { BASE, handleUnauthorized, type Query, queryString, TIMEOUT_MS } from "../../lib/api";
import { currentToken } from "../../lib/session";

export interface Progress {
  /** Data rows so far (CSV only: an xlsx arrives compressed, so only its bytes count). */
  rows: number;
  bytes: number;
}

export type Outcome = { kind: "saved"; rows: number; bytes: number; fileName: string } | { kind: "empty" } | { kind: "cancelled" };

export class ReportError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Counts the CSV records in a stream, RFC 4180 style: a line break inside a quoted cell (an
 * item's description may hold one) is not a new record. A doubled quote inside quotes toggles
 * twice, so it needs no special case.
 */
export class CsvRowCounter {
  private quoted = false;
  private lines = 0;
  private pending = false;

  push(chunk: Uint8Array) {
    for (const b of chunk) {
      if (b === 0x22) this.quoted = !this.quoted;
      else if (b === 0x0a && !this.quoted) {
        this.lines++;
        this.pending = false;
        continue;
      }
      if (b !== 0x0d) this.pending = true;
    }
  }
  /** Data rows: every record but the header (the last one may lack its line break). */
  get rows() {
    return Math.max(0, this.lines + (this.pending ? 1 : 0) - 1);
  }
}

/** The file name the server chose (Content-Disposition, RFC 6266), else one built the same way. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (disposition) {
    const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
    if (star) {
      try {
        return decodeURIComponent(star[1]!.trim());
      } catch {
        // A malformed encoding: fall through to the plain name.
      }
    }
    const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/.exec(disposition);
    const name = plain?.[1] ?? plain?.[2]?.trim();
    if (name) return name;
  }
  return fallback;
}

async function errorMessage(res: Response): Promise<string> {
  const json = (await res.json().catch(() => null)) as { message?: string } | null;
  return json?.message ?? `The report failed (${res.status})`;
}

/**
 * Streams one report (GET /tickets/csv/{name}, spec §7) with the employee's token in the header (as api() sends it), counting the
 * rows as they arrive, and saves it under the server's file name. Nothing is saved when the
 * report has no rows (or the box answers 204), or when the user cancels through `signal`.
 * Only the wait for the first byte has the 30 s timeout of spec §9; a long report keeps streaming.
 */
export async function downloadReport(
  name: ReportName,
  query: Query,
  format: ReportFormat,
  opts: { signal: AbortSignal; onProgress: (p: Progress) => void; chain?: boolean },
): Promise<Outcome> {
  const ctrl = new AbortController();
  const cancel = () => ctrl.abort();
  opts.signal.addEventListener("abort", cancel);
  const timer = setTimeout(cancel, TIMEOUT_MS);
  const token = currentToken();
  try {
    let res: Response;
    try {
      // Head quarters' chain reports (issue 15) are the same files over every site's copy.
      res = await fetch(
        `${BASE}${opts.chain ? "/chain/reports/" : "/tickets/csv/"}${name}${queryString({ ...query, ...(format === "xlsx" ? { format } : {}) })}`,
        {
          signal: ctrl.signal,
          cache: "no-store",
          headers: token ? { authorization: `token ${token}` } : {},
        },
      );
    } catch {
      if (opts.signal.aborted) return { kind: "cancelled" };
      throw new ReportError(0, ctrl.signal.aborted ? "The box did not answer in time; try again" : "Cannot reach the box; check the Wi-Fi");
    } finally {
      clearTimeout(timer);
    }
    if (res.status === 204) return { kind: "empty" };
    if (!res.ok || !res.body) {
      const message = await errorMessage(res);
      // Spec §6: a 401 logs out whoever the message names, as for every other call.
      if (res.status === 401) handleUnauthorized(message, token);
      throw new ReportError(res.status, message);
    }

    const counter = format === "csv" ? new CsvRowCounter() : null;
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        bytes += value.byteLength;
        counter?.push(value);
        opts.onProgress({ rows: counter?.rows ?? 0, bytes });
      }
    } catch {
      if (opts.signal.aborted) return { kind: "cancelled" };
      throw new ReportError(0, "The download stopped; try again");
    }
    const rows = counter?.rows ?? 0;
    if (counter && rows === 0) return { kind: "empty" };
    const q = query as { from?: string; to?: string };
    const fileName = fileNameOf(res.headers.get("content-disposition"), `${name} ${printDate(q.from)} ${printDate(q.to)}.${format}`);
    save(new Blob(chunks as BlobPart[], { type: res.headers.get("content-type") ?? "application/octet-stream" }), fileName);
    return { kind: "saved", rows, bytes, fileName };
  } finally {
    opts.signal.removeEventListener("abort", cancel);
  }
}

/** Saves a file the browser holds (the journal screen saves its file this way too). */
export function save(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // Late enough for the browser to have started the save.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
