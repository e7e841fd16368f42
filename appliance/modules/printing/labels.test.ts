import { expect, test } from "bun:test";
import type { TicketView } from "../tickets/repo";
import { labelsFor } from "./labels";

const item = (id: number, description: string, pieces: string, actions: [string, number][], sorted = false) => ({
  id,
  description,
  pieces,
  sorted,
  has_express: false,
  actions: actions.map(([name, quantity]) => ({ name, quantity })),
});
const ticket = {
  id: 7,
  agent: "Ironbox Mosta",
  created_at: "2026-11-22T09:00:00.000Z",
  confirmed_at: "2026-11-22T09:30:00.000Z",
  delivery_date: "2026-11-29T00:00:00.000Z",
  customer: { full_name: "Maria Borg" },
  ticket_sub_categories: [
    item(1, "Suit 2pc", "Jacket,Trousers", [["Dry Cleaning", 1]], true),
    item(2, "Shirt", "", [["Laundry", 1], ["Ironing", 3]]),
    item(3, "Carpet", "", [["Carpets", 1]]),
  ],
} as unknown as TicketView;

test("one label per piece, with the ticket's sorted-of-total tallies and its dates", () => {
  const labels = labelsFor(ticket);
  expect(labels.map((l) => [l.itemId, l.piece])).toEqual([
    [1, "Jacket"],
    [1, "Trousers"],
    [2, "Shirt"],
    [3, "Carpet"],
  ]);
  expect(labels[0]!.tallies).toEqual([
    { label: "Laundry", sorted: 0, total: 1 },
    { label: "Dry Cleaning", sorted: 1, total: 1 },
    { label: "Carpets", sorted: 0, total: 1 },
  ]);
  expect(labels[0]).toMatchObject({ ticketId: 7, agent: "Ironbox Mosta", date: "22/11/2026", deliveryDate: "29/11/2026", customer: "Maria Borg" });
  expect(labelsFor(ticket, [2]).map((l) => l.itemId)).toEqual([2]);
});

test("mini labels: one per action amount, flagged mini, naming the action", () => {
  const minis = labelsFor(ticket, [1, 2], { mini: true });
  expect(minis.map((l) => [l.itemId, l.action, l.mini])).toEqual([
    [1, "Dry Cleaning", true],
    [2, "Laundry", true],
    [2, "Ironing", true],
    [2, "Ironing", true],
    [2, "Ironing", true],
  ]);
  expect(minis[0]!.piece).toBe("Jacket");
});
