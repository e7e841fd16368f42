import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { boxSettings } from "../../db/schema";

/** A list kept in box_settings, and, when what is stored no longer validates, what is wrong with it. */
export interface StoredList<T> {
  list: T[];
  invalid?: { message: string };
}

/**
 * Reads a list of box hardware settings (printers, guns) stored as JSON in box_settings. A
 * stored value that no longer validates (an older shape, a hand edit) reads as an empty list
 * with `invalid` saying why, and is logged once per stored value: the screens show it, and
 * the value stays stored until an admin saves a good list over it.
 */
export function storedList<T>({ db, key, schema, log }: { db: Db; key: string; schema: z.ZodType<T>; log: (m: string) => void }) {
  let reported: string | null = null;
  return async (): Promise<StoredList<T>> => {
    const row = await db.query.boxSettings.findFirst({ where: eq(boxSettings.key, key) });
    if (!row) return { list: [] };
    let message: string;
    try {
      const parsed = z.array(schema).safeParse(JSON.parse(row.value));
      if (parsed.success) return { list: parsed.data };
      message = parsed.error.issues.map((i) => `${describePath(i.path)}: ${i.message}`).join("; ");
    } catch {
      message = "not JSON";
    }
    if (reported !== row.value) {
      reported = row.value;
      log(`box_settings "${key}": settings invalid (${message}); fix them on the screen or save a new list`);
    }
    return { list: [], invalid: { message } };
  };
}

/** An issue's place in the list as a person counts it: "#2 target.path". */
function describePath(path: readonly PropertyKey[]): string {
  const [index, ...rest] = path;
  if (typeof index !== "number") return "the list";
  return [`#${index + 1}`, rest.map(String).join(".")].filter(Boolean).join(" ");
}
