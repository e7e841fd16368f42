import type { z } from "zod";
import { unprocessable } from "../platform/errors";

/**
 * Control characters: C0 except tab, line feed and carriage return, DEL, and C1. A NUL broke
 * the FTS5 search (500), and an escape or form feed in a name would reach printers, PDFs and
 * CSV files; none has a use in any field, so they are removed, once, from every string the
 * client sends, before validation. Tab and line breaks stay (comments have several lines).
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/** Every string inside parsed JSON, a query or path parameters, without control characters. */
export function withoutControlChars(value: unknown): unknown {
  if (typeof value === "string") return value.replace(CONTROL, "");
  if (Array.isArray(value)) return value.map(withoutControlChars);
  // Plain objects only: uploaded files (multipart) and other instances are left as they are.
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutControlChars(v)]));
  }
  return value;
}

/**
 * Parses one part of a request, after removing control characters from its strings. The 422
 * message names each failing field and why, never the value sent (QUALITY.md: validation
 * errors do not echo input).
 */
export function parsePart<T>(schema: z.ZodType<T> | undefined, value: unknown, part: "body" | "query" | "params"): T {
  if (!schema) return undefined as T;
  const r = schema.safeParse(withoutControlChars(value));
  if (r.success) return r.data;
  const fields = r.error.issues.slice(0, 10).map((i) => {
    const path = i.path.length ? i.path.join(".") : part;
    return `${path}: ${describe(i)}`;
  });
  throw unprocessable(`Invalid ${part}: ${fields.join("; ")}`);
}

function describe(i: z.core.$ZodIssue): string {
  switch (i.code) {
    case "invalid_type":
      return i.input === undefined ? "is required" : `must be ${i.expected}`;
    case "too_small":
      return i.origin === "string" ? `must have at least ${i.minimum} characters` : `must be at least ${i.minimum}`;
    case "too_big":
      return i.origin === "string" ? `must have at most ${i.maximum} characters` : `must be at most ${i.maximum}`;
    case "invalid_value":
      return `must be one of ${i.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "unrecognized_keys":
      return `unknown field(s) ${i.keys.join(", ")}`;
    case "invalid_format":
      return `must be a valid ${i.format}`;
    default:
      // Custom refinements carry our own messages, written not to include the input.
      return i.message;
  }
}
