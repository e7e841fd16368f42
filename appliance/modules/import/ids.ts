// Which of the old system's ids this box takes (issue 32). Ids are kept, so an imported id
// sets where the box's own numbering continues (AUTOINCREMENT follows the highest): one
// customer numbered 9007199254740990 would leave the box one new customer before ids past
// what JavaScript counts exactly, and the one after that answers 500. So an id is taken only
//  - at most ID_CEILING, well below 2^31: every table that grows keeps 2^24 (16.7 M) ids of
//    room for the box's own records, and ids stay plain 32-bit integers for every client;
//  - at most MARGIN + FACTOR × the rows of that table seen so far (on this box, or read in
//    this run): a real system's ids run roughly with its rows (deleted ones leave gaps), a
//    lone id far above them is refused. The margin covers the newest-first ticket list, whose
//    first page carries the highest ids while few rows have been seen (the 10-year reference
//    set's largest ids, 3 M item logs, are within it).
// A record whose own id, or one of its rows' ids (items, their actions, modifiers and logs,
// the ticket's state logs), is past the bound is refused whole with the reason.

/** The highest id taken: 2^31 − 1 less 2^24 of room for the box's own records. */
export const ID_CEILING = 2 ** 31 - 1 - 2 ** 24;
/** Ids up to this are taken whatever has been seen. */
export const ID_MARGIN = 10_000_000;
/** Beyond the margin, an id may be this many times the rows seen of its table. */
export const ID_FACTOR = 10;

/** What a ticket carries with ids of other tables. */
interface TicketRows {
  ticket_sub_categories: { id: number; actions: { id: number }[]; modifiers: { id: number }[]; log_states: { id: number }[] }[];
  ticket_log_states: { id: number }[];
}

/** Counts rows per table as they are read and says which id, if any, is past its bound. */
export function idBounds() {
  const seen = new Map<string, number>();
  const bound = (table: string) => Math.min(ID_CEILING, ID_MARGIN + ID_FACTOR * (seen.get(table) ?? 0));
  const count = (table: string, n: number) => seen.set(table, (seen.get(table) ?? 0) + n);

  function check(table: string, what: string, ids: number[]): string | null {
    count(table, ids.length);
    const limit = bound(table);
    const over = ids.find((id) => id > limit);
    if (over === undefined) return null;
    return over > ID_CEILING
      ? `${what} id ${over} is past the highest id this box takes (${ID_CEILING}): the box could not go on numbering after it`
      : `${what} id ${over} is far above the ${seen.get(table)} ${what} records seen (at most ${limit} is taken): not a plausible id`;
  }

  return {
    /** Rows a table holds before the run (this box's own and earlier imports). */
    start(table: string, rows: number) {
      if (!seen.has(table)) seen.set(table, rows);
    },
    /** The reason a record is refused for its ids, or null. Counts its rows as seen either way. */
    check(kind: string, record: { id: number }): string | null {
      const own = check(kind, kind.replace(/_/g, " "), [record.id]);
      if (own || kind !== "ticket") return own;
      const t = record as unknown as TicketRows;
      const items = t.ticket_sub_categories;
      return (
        check(
          "item",
          "item",
          items.map((i) => i.id),
        ) ??
        check(
          "item_action",
          "item action",
          items.flatMap((i) => i.actions.map((a) => a.id)),
        ) ??
        check(
          "item_modifier",
          "item modifier",
          items.flatMap((i) => i.modifiers.map((m) => m.id)),
        ) ??
        check(
          "item_log",
          "item state log",
          items.flatMap((i) => i.log_states.map((l) => l.id)),
        ) ??
        check(
          "ticket_log",
          "ticket state log",
          t.ticket_log_states.map((l) => l.id),
        )
      );
    },
  };
}

/** Ids from 1 to below `max` that are not in `seen`, as [from, to] ranges (both included). */
export function gapRanges(seen: Iterable<number>, max: number): [number, number][] {
  const sorted = Float64Array.from(seen).sort();
  const out: [number, number][] = [];
  let next = 1;
  for (const id of sorted) {
    if (id >= max) break;
    if (id > next) out.push([next, id - 1]);
    if (id >= next) next = id + 1;
  }
  if (next < max) out.push([next, max - 1]);
  return out;
}

/** Keeps the highest `cap` ids of the ranges (the newest records are the likeliest to exist). */
export function newestOf(ranges: [number, number][], cap: number): { ranges: [number, number][]; left: number } {
  const out: [number, number][] = [];
  let room = cap;
  let left = 0;
  for (let i = ranges.length - 1; i >= 0; i--) {
    const [from, to] = ranges[i]!;
    const size = to - from + 1;
    if (room >= size) {
      out.unshift([from, to]);
      room -= size;
    } else {
      if (room > 0) out.unshift([to - room + 1, to]);
      left += size - room;
      room = 0;
    }
  }
  return { ranges: out, left };
}

/** The ids of ranges, `size` at a time. */
export function* idChunks(ranges: [number, number][], size: number): Generator<number[]> {
  let chunk: number[] = [];
  for (const [from, to] of ranges)
    for (let id = from; id <= to; id++) {
      chunk.push(id);
      if (chunk.length === size) yield chunk, (chunk = []);
    }
  if (chunk.length) yield chunk;
}
