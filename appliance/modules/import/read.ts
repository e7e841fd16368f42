// How the import reads the old system (spec §7 GET routes only): list routes page by page,
// a page that fails halved until the bad record is alone, a few requests in flight, and what
// a list row lacks (a customer's preferences, a ticket's state history) asked for per record
// only when the list does not carry it.
import { type Source, SourceError } from "./client";
import type { KindPlan } from "./plan";
import type { Kind } from "./writer";

/** Requests in flight at once for per-record reads (preferences, state logs, probes). */
export const PARALLEL = 8;
/** How many addresses Ironbox's GET /address/ answers at most. */
const ADDRESS_CAP = 1000;

/** A row that could not be completed: refused with its reason, counted as read. */
export interface FailedRow {
  __failed: true;
  id: number;
  reason: string;
}

/** Runs `fn` over items with at most `width` calls in flight; results in the items' order. */
export async function parallel<T, U>(items: T[], fn: (x: T) => Promise<U>, width = PARALLEL): Promise<U[]> {
  const out = new Array<U>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/**
 * A customer's preferences as a list carries them: ids, or the spec's CustomerPreference rows
 * ({customer_id, preference_id}). Anything else is left as it is for the record check to refuse.
 */
export function preferenceIds(prefs: unknown[]): unknown[] {
  return prefs.map((x) => (typeof x === "object" && x !== null && "preference_id" in x ? (x as { preference_id: unknown }).preference_id : x));
}

export function createReader(src: Source, o: { pageSize: number; refuse: (kind: Kind, id: number | null, reason: string) => void }) {
  const { pageSize, refuse } = o;

  async function pageOrBisect(p: KindPlan, prefix: string, offset: number, limit: number): Promise<{ rows: unknown[]; consumed: number; allFailed: boolean }> {
    try {
      const rows = await src.list(`${prefix}limit=${limit}&offset=${offset}`);
      return { rows, consumed: rows.length, allFailed: false };
    } catch (e) {
      if (!(e instanceof SourceError)) throw e;
      if (limit === 1) {
        refuse(p.kind, null, `record at offset ${offset}: ${e.message}`);
        return { rows: [], consumed: 1, allFailed: true };
      }
      const half = Math.ceil(limit / 2);
      const a = await pageOrBisect(p, prefix, offset, half);
      if (a.consumed < half) return a;
      const b = await pageOrBisect(p, prefix, offset + half, limit - half);
      return { rows: [...a.rows, ...b.rows], consumed: a.consumed + b.consumed, allFailed: a.allFailed && b.allFailed };
    }
  }

  /**
   * Pages of a list route. The next page is asked for while the caller writes this one (the
   * old system answers while this box writes: two processes, two cores).
   */
  async function* pages(p: KindPlan, path: string): AsyncGenerator<unknown[]> {
    const prefix = `${path}${path.includes("?") ? "&" : "?"}`;
    let offset = 0;
    let next = pageOrBisect(p, prefix, offset, pageSize);
    for (;;) {
      const got = await next;
      const more = !got.allFailed && got.consumed >= pageSize;
      if (more) {
        offset += got.consumed;
        next = pageOrBisect(p, prefix, offset, pageSize);
        // Not awaited if the caller stops first (a cancel): its failure must not go unhandled.
        next.catch(() => {});
      }
      if (got.rows.length) yield got.rows;
      if (got.allFailed) {
        refuse(p.kind, null, `gave up reading ${p.label} at offset ${offset}: every record of a page failed`);
        return;
      }
      if (!more) return;
    }
  }

  /** Adds what a list row lacks, asking per record only when the list did not carry it. */
  async function complete(p: KindPlan, rows: unknown[]): Promise<unknown[]> {
    if (p.kind !== "customer" && p.kind !== "ticket") return rows;
    return parallel(rows, async (row) => {
      const r = row as { id?: unknown; preferences?: unknown; ticket_log_states?: unknown };
      if (typeof r !== "object" || r === null || typeof r.id !== "number") return row;
      try {
        if (p.kind === "customer") {
          if (Array.isArray(r.preferences)) return { ...r, preferences: preferenceIds(r.preferences) };
          return { ...r, preferences: preferenceIds(await src.list(`/customerPreferences/customers/${r.id}`)) };
        }
        if (Array.isArray(r.ticket_log_states)) return row;
        return { ...r, ticket_log_states: await src.list(`/ticketLogStates/${r.id}`) };
      } catch (e) {
        return { __failed: true, id: r.id, reason: (e as Error).message } satisfies FailedRow;
      }
    });
  }

  /**
   * GET /address/ answers at most 1000 addresses when it is Ironbox (its cap); the rest are
   * asked for by id (?ids= repeated, 200 at a time) above the highest one seen, until a block
   * brings none of the ids asked for. A shorter first answer is the whole list; a system that
   * ignores ?ids= answers its list again, which holds none of the ids asked for: one request.
   */
  async function addressesPastTheCap(first: unknown[]): Promise<unknown[]> {
    if (first.length < ADDRESS_CAP) return [];
    const out: unknown[] = [];
    let next = 1 + Math.max(0, ...first.map((r) => Number((r as { id?: unknown })?.id) || 0));
    for (let guard = 0; guard < 10_000; guard++, next += 200) {
      const ids = Array.from({ length: 200 }, (_, k) => next + k);
      const asked = new Set(ids);
      const rows = (await src.list(`/address/?${ids.map((id) => `ids=${id}`).join("&")}`)).filter((r) => asked.has((r as { id?: number })?.id as number));
      if (!rows.length) break;
      out.push(...rows);
    }
    return out;
  }

  /** One ticket by id: null when the source answers 404 (deleted there). */
  const ticket = (id: number): Promise<unknown | FailedRow | null> =>
    src.get(`/tickets/${id}`).catch((e: SourceError) => (e.status === 404 ? null : ({ __failed: true, id, reason: e.message } satisfies FailedRow)));

  return { pages, complete, addressesPastTheCap, ticket };
}
