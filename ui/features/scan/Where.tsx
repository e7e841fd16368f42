import { useEffect, useState } from "react";
import type { Item } from "../../../appliance/modules/tickets/model";
import { ticketLocations } from "./api";

/** The ticket view's "where are its bags" line (issue 25): the racks its items are on, or none yet. */
export function WhereItIs({ items }: { items: Pick<Item, "location">[] }) {
  const racks = [...new Set(items.map((i) => i.location).filter(Boolean))];
  const loose = items.filter((i) => !i.location).length;
  if (!items.length) return null;
  return (
    <p className="ticket-where" data-testid="ticket-where">
      {racks.length ? (
        <>
          Bags on <strong>{racks.join(", ")}</strong>
          {loose ? ` · ${loose} item${loose === 1 ? "" : "s"} not on a rack` : ""}
        </>
      ) : (
        <span className="muted">Not on a rack yet</span>
      )}
    </p>
  );
}

/**
 * Where each listed ticket's items wait, by ticket id (the customer screen's tickets). A failed
 * look-up leaves the column empty: the list itself is what matters there.
 */
export function useTicketLocations(ids: number[]): Map<number, string[]> {
  const [where, setWhere] = useState(new Map<number, string[]>());
  const key = ids.join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the ids.
  useEffect(() => {
    if (!ids.length) return;
    let gone = false;
    ticketLocations(ids.slice(0, 100)).then(
      (rows) => !gone && setWhere(new Map(rows.map((r) => [r.ticket_id, r.locations]))),
      () => {},
    );
    return () => void (gone = true);
  }, [key]);
  return where;
}
