import type { LabelData } from "../../../drivers/printers/label";
import { displayDate } from "../../domain/format";
import { unprocessable } from "../../platform/errors";
import type { TicketView } from "../tickets/repo";
import { pieceList } from "../tickets/items";

/** Spec §9: the actions tallied on labels as sorted-of-total counts. */
export const TALLIED_ACTIONS = ["Laundry", "Dry Cleaning", "Carpets"] as const;

/**
 * The most labels one print request may ask for. A busy counter's biggest ticket (a hotel's
 * or a restaurant's linen, a few hundred pieces) fits; a label printer takes about a second a
 * label, so 500 is already some eight minutes of printing, a whole roll, and a larger batch
 * is a mistake (or an attack: 25,000 labels stalled the box) rather than a ticket. Item by
 * item printing covers anything bigger.
 */
export const MAX_LABELS = 500;

/**
 * One label per piece of each chosen item (spec §9; no ids: every item), with the ticket's
 * tallies; or, with `mini`, one small label per action amount (an item with 2 × Ironing gets
 * two, an amount of 0 still one), naming the action, on the item's first piece. More than
 * MAX_LABELS is refused (422) before any label is made.
 */
export function labelsFor(t: TicketView, itemIds?: number[], opts: { mini?: boolean } = {}): LabelData[] {
  const tallies = TALLIED_ACTIONS.map((label) => {
    const withIt = t.ticket_sub_categories.filter((i) => i.actions.some((a) => a.name === label));
    return { label, sorted: withIt.filter((i) => i.sorted).length, total: withIt.length };
  });
  const items = t.ticket_sub_categories.filter((i) => !itemIds?.length || itemIds.includes(i.id));
  const count = items.reduce(
    (n, i) => n + (opts.mini ? i.actions.reduce((m, a) => m + Math.max(1, a.quantity), 0) : pieceList(i.pieces, i.description).length),
    0,
  );
  if (count > MAX_LABELS) throw unprocessable(`That is ${count} labels; one print takes at most ${MAX_LABELS}: print fewer items at a time`);
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
    if (opts.mini)
      return i.actions.flatMap((a) =>
        Array.from({ length: Math.max(1, a.quantity) }, () => ({ ...base, piece: pieces[0] ?? i.description, mini: true, action: a.name })),
      );
    return pieces.map((piece) => ({ ...base, piece }));
  });
}
