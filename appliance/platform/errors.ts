/**
 * Failures a person can read, raised by services and mapped to HTTP statuses in one place
 * (appliance/http/app.ts). Services say what went wrong (`kind`), never how it is sent.
 */
export type ErrorKind =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "unsupported_media"
  | "invalid"
  | "too_many"
  | "too_large"
  | "insufficient_storage";

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (m: string) => new AppError("bad_request", m);
/** Not logged in: the message starts with "Agent", "Employee" or "Token", which tells the UI whom to log out (spec §6). */
export const unauthorized = (m: `Agent${string}` | `Employee${string}` | `Token${string}`) => new AppError("unauthorized", m);
export const forbidden = (m = "Your role may not do this") => new AppError("forbidden", m);
export const notFound = (what = "Record") => new AppError("not_found", `${what} not found`);
export const conflict = (m: string) => new AppError("conflict", m);
/** Input that is well-formed but not acceptable (names the field, never echoes the value). */
export const unprocessable = (m: string) => new AppError("invalid", m);
export const unsupportedMedia = (m: string) => new AppError("unsupported_media", m);
export const tooMany = (m: string) => new AppError("too_many", m);
/** One part of a request is larger than the box takes for it (413). */
export const tooLarge = (m: string) => new AppError("too_large", m);
/** The box's disk (or a shop's quota) has no room for this. */
export const insufficientStorage = (m: string) => new AppError("insufficient_storage", m);
