// Ticket states come from the tickets (issue 32): the spec's API has no route listing them
// (GET /ticketStates/ is Ironbox's own, the old system does not answer it), so the import
// reads only the spec's GET routes and takes each state name a ticket, its items and their
// logs use. A name this box lacks is added after its states (not a locality delivery state,
// prices on receipts, shown in lists: an HQ admin adjusts it on Ticket states); at most
// MAX_NEW_STATES a run, so a source cannot fill the box's lists. A ticket or item in a state
// that could not be added is refused with the reason; a log's state is only its history.
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { ticketStates } from "../../../db/schema";
import type { Ticket } from "./records";
import type { KindCounts } from "./types";

/** New state names one run adds at most. */
export const MAX_NEW_STATES = 50;

export async function stateKeeper(db: Db, dry: boolean) {
  const known = new Set((await db.select({ name: ticketStates.name }).from(ticketStates)).map((s) => s.name));
  const counts: KindCounts = { read: 0, new: 0, changed: 0, unchanged: 0, refused: 0 };
  const seen = new Set<string>();
  let added = 0;

  async function add(name: string): Promise<boolean> {
    if (known.has(name)) return true;
    if (added >= MAX_NEW_STATES) return false;
    if (!dry)
      await db
        .insert(ticketStates)
        .values({ name, position: sql`(SELECT coalesce(max(position), 0) + 1 FROM ticket_states)`, prices_on_receipt: true })
        .onConflictDoNothing({ target: ticketStates.name });
    known.add(name);
    added++;
    counts.new++;
    return true;
  }

  return {
    counts,
    /** Adds the states a ticket uses that the box lacks; the reason it is refused, or null. */
    async take(t: Ticket): Promise<string | null> {
      const own = [t.state, ...t.ticket_sub_categories.map((i) => i.state)];
      const logs = [...t.ticket_log_states.map((l) => l.state), ...t.ticket_sub_categories.flatMap((i) => i.log_states.map((l) => l.state))];
      for (const name of new Set([...own, ...logs]))
        if (!seen.has(name)) {
          seen.add(name);
          counts.read++;
          if (known.has(name)) counts.unchanged++;
        }
      for (const name of own)
        if (!(await add(name))) return `state "${name.slice(0, 60)}" is not a ticket state here, and this run added ${MAX_NEW_STATES} already`;
      for (const name of logs) await add(name);
      return null;
    },
  };
}
