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
  insufficient_storage: 507,
};

export const statusOf = (e: AppError) => STATUS[e.kind];
