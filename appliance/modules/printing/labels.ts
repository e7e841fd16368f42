import type { LabelData } from "../../../drivers/printers/label";
import { displayDate } from "../../domain/format";
import type { TicketView } from "../tickets/repo";
import { pieceList } from "../tickets/items";

/** Spec §9: the actions tallied on labels as sorted-of-total counts. */
export const TALLIED_ACTIONS = ["Laundry", "Dry Cleaning", "Carpets"] as const;

/**
 * One label per piece of each chosen item (spec §9; no ids: every item), with the ticket's
 * tallies; or, with `mini`, one small label per action amount (an item with 2 × Ironing gets
 * two, an amount of 0 still one), naming the action, on the item's first piece.
 */
export function labelsFor(t: TicketView, itemIds?: number[], opts: { mini?: boolean } = {}): LabelData[] {
  const tallies = TALLIED_ACTIONS.map((label) => {
    const withIt = t.ticket_sub_categories.filter((i) => i.actions.some((a) => a.name === label));
    return { label, sorted: withIt.filter((i) => i.sorted).length, total: withIt.length };
  });
  const items = t.ticket_sub_categories.filter((i) => !itemIds?.length || itemIds.includes(i.id));
  return items.flatMap((i) => {
    const pieces = pieceList(i.pieces, i.description);
    const base = {
      ticketId: t.id,
      itemId: i.id,
      description: i.description,
      agent: t.agent,
      date: displayDate(t.confirmed_at ?? t.created_at),
      deliveryDate: t.delivery_date ? displayDate(t.delivery_date) : undefined,
      tallies,
      customer: t.customer.full_name,
      express: i.has_express,
    };
    if (opts.mini) return i.actions.flatMap((a) => Array.from({ length: Math.max(1, a.quantity) }, () => ({ ...base, piece: pieces[0] ?? i.description, mini: true, action: a.name })));
    return pieces.map((piece) => ({ ...base, piece }));
  });
}
