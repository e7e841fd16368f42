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
    item(2, "Shirt", "", [
      ["Laundry", 1],
      ["Ironing", 3],
    ]),
    item(3, "Carpet", "", [["Carpets", 1]]),
    item(4, "Duvet king size", "", [["Laundry", 0]], true),
  ],
} as unknown as TicketView;

test("one label per piece, with the ticket's sorted-of-total tallies and its dates", () => {
  const labels = labelsFor(ticket);
  expect(labels.map((l) => [l.itemId, l.piece])).toEqual([
    [1, "Jacket"],
    [1, "Trousers"],
    [2, "Shirt"],
    [3, "Carpet"],
    [4, "Duvet king size"],
  ]);
  // Sorted-of-total: of the items with the action, how many are sorted. Ironing is not tallied.
  const tallies = [
    { label: "Laundry", sorted: 1, total: 2 },
    { label: "Dry Cleaning", sorted: 1, total: 1 },
    { label: "Carpets", sorted: 0, total: 1 },
  ];
  for (const l of labels) expect(l.tallies).toEqual(tallies);
  expect(labels.every((l) => !l.mini && l.action === undefined)).toBe(true);
  expect(labels[0]).toMatchObject({
    ticketId: 7,
    itemId: 1,
    description: "Suit 2pc",
    agent: "Ironbox Mosta",
    date: "22/11/2026",
    deliveryDate: "29/11/2026",
    customer: "Maria Borg",
  });
});

test("only the chosen items get labels, still with the whole ticket's tallies; none chosen means all", () => {
  const labels = labelsFor(ticket, [2, 3]);
  expect(labels.map((l) => l.itemId)).toEqual([2, 3]);
  expect(labels[0]!.tallies).toEqual(labelsFor(ticket)[0]!.tallies);
  expect(labelsFor(ticket, [99])).toEqual([]);
  expect(labelsFor(ticket, []).length).toBe(labelsFor(ticket).length);
});

test("mini labels: one per action amount (at least one), flagged mini, naming the action, on the first piece", () => {
  const minis = labelsFor(ticket, [1, 2, 4], { mini: true });
  expect(minis.map((l) => [l.itemId, l.action, l.mini, l.piece])).toEqual([
    [1, "Dry Cleaning", true, "Jacket"],
    [2, "Laundry", true, "Shirt"],
    [2, "Ironing", true, "Shirt"],
    [2, "Ironing", true, "Shirt"],
    [2, "Ironing", true, "Shirt"],
    [4, "Laundry", true, "Duvet king size"],
  ]);
  expect(minis[0]).toMatchObject({ ticketId: 7, description: "Suit 2pc", tallies: labelsFor(ticket)[0]!.tallies });
  expect(labelsFor(ticket, undefined, { mini: true })).toHaveLength(7);
  expect(labelsFor(ticket, [3], { mini: false }).map((l) => l.mini)).toEqual([undefined]);
});
