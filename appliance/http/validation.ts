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
  const tokens = taintedTokens(schema, value, []);
  if (tokens.length) throw unprocessable(`Invalid ${part}: ${tokens.slice(0, 10).join("; ")}`);
  const r = schema.safeParse(withoutControlChars(value));
  if (r.success) return r.data;
  const fields = r.error.issues.slice(0, 10).map((i) => {
    const path = i.path.length ? i.path.join(".") : part;
    return `${path}: ${describe(i)}`;
  });
  throw unprocessable(`Invalid ${part}: ${fields.join("; ")}`);
}

/**
 * An enumerated value (a tender, a role, a type) is a token, not text: "cash\u0000" is not
 * "cash" with a stray byte but no tender at all (issue 31), so a control character in a value
 * the schema checks against a fixed list is a 422 instead of being removed. Walks objects,
 * arrays, optional/nullable/default wrappers and pipes' inputs; answers the failing fields.
 */
function taintedTokens(schema: z.ZodType, value: unknown, path: (string | number)[]): string[] {
  const def = (schema as unknown as { def: { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; element?: z.ZodType; in?: z.ZodType } })
    .def;
  switch (def.type) {
    case "enum":
      if (typeof value !== "string" || value.replace(CONTROL, "") === value) return [];
      return [`${path.length ? path.join(".") : "value"}: must be one of ${(schema as z.ZodEnum).options.map((v) => JSON.stringify(v)).join(", ")}`];
    case "object":
      if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
      return Object.entries(def.shape ?? {}).flatMap(([k, s]) => taintedTokens(s, (value as Record<string, unknown>)[k], [...path, k]));
    case "array":
      return Array.isArray(value) && def.element ? value.flatMap((v, i) => taintedTokens(def.element!, v, [...path, i])) : [];
    case "optional":
    case "nullable":
    case "default":
      return def.innerType ? taintedTokens(def.innerType, value, path) : [];
    case "pipe":
      return def.in ? taintedTokens(def.in, value, path) : [];
    default:
      return [];
  }
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
