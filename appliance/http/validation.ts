import type { z } from "zod";
import { unprocessable } from "./errors";

/**
 * Parses one part of a request. The 422 message names each failing field and why, never
 * the value sent (QUALITY.md: validation errors do not echo input).
 */
export function parsePart<T>(schema: z.ZodType<T> | undefined, value: unknown, part: "body" | "query" | "params"): T {
  if (!schema) return undefined as T;
  const r = schema.safeParse(value);
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
