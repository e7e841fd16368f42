/** An error with an honest HTTP status and a message a person can read. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (m: string) => new HttpError(400, m);
/** 401 messages start with "Agent", "Employee" or "Token": the UI logs out accordingly (spec §6). */
export const unauthorized = (m: `Agent${string}` | `Employee${string}` | `Token${string}`) => new HttpError(401, m);
export const forbidden = (m = "Your role may not do this") => new HttpError(403, m);
export const notFound = (what = "Record") => new HttpError(404, `${what} not found`);
export const conflict = (m: string) => new HttpError(409, m);
export const unprocessable = (m: string) => new HttpError(422, m);
export const unsupportedMedia = (m: string) => new HttpError(415, m);
export const tooMany = (m: string) => new HttpError(429, m);
