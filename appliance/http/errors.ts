import type { AppError, ErrorKind } from "../platform/errors";

/** The one mapping from what went wrong to an honest HTTP status. */
const STATUS: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unsupported_media: 415,
  invalid: 422,
  too_many: 429,
  too_large: 413,
  insufficient_storage: 507,
};

export const statusOf = (e: AppError) => STATUS[e.kind];

export const DISK_FULL = "The box's disk is full: nothing was saved. Free space on the box (or call whoever looks after it), then try again";
export const DISK_FAILING = "The box could not read or write its disk: nothing was saved. Try again; if it keeps happening, the box's disk needs looking at";

/**
 * The database refused a write for lack of room (SQLITE_FULL: 507) or hit an I/O error
 * (SQLITE_IOERR_*: 503). SQLite has rolled the transaction back, so nothing was half
 * written; the box serves again once the disk has room. drizzle wraps libSQL's error.
 */
export function storageFailure(error: unknown): { status: 507 | 503; message: string } | null {
  for (let e = error as { cause?: unknown; code?: string; extendedCode?: string } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const code = `${e.extendedCode ?? ""} ${e.code ?? ""}`;
    if (code.includes("SQLITE_FULL")) return { status: 507, message: DISK_FULL };
    if (code.includes("SQLITE_IOERR")) return { status: 503, message: DISK_FAILING };
  }
  return null;
}
