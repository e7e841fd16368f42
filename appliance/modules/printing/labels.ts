import type { LabelData } from "../../../drivers/printers/label";
import { displayDate } from "../../domain/format";
import type { TicketView } from "../tickets/repo";
import { pieceList } from "../tickets/items";

/** Spec §9: the actions tallied on labels as sorted-of-total counts. */
export const TALLIED_ACTIONS = ["Laundry", "Dry Cleaning", "Carpets"] as const;

/** One label per piece of each chosen item (spec §9), with the ticket's tallies. */
export function labelsFor(t: TicketView, itemIds?: number[]): LabelData[] {
  const tallies = TALLIED_ACTIONS.map((label) => {
    const withIt = t.ticket_sub_categories.filter((i) => i.actions.some((a) => a.name === label));
    return { label, sorted: withIt.filter((i) => i.sorted).length, total: withIt.length };
  });
  const items = t.ticket_sub_categories.filter((i) => !itemIds?.length || itemIds.includes(i.id));
  return items.flatMap((i) =>
    pieceList(i.pieces, i.description).map((piece) => ({
      ticketId: t.id,
      itemId: i.id,
      description: i.description,
      piece,
      agent: t.agent,
      date: displayDate(t.confirmed_at ?? t.created_at),
      deliveryDate: t.delivery_date ? displayDate(t.delivery_date) : undefined,
      tallies,
      customer: t.customer.full_name,
      express: i.has_express,
    })),
  );
}
