import { expect, test } from "bun:test";
import { stopDone, stopNotReady } from "./runStop";

test("a pickup is done once the ticket moved past AWAITING PICKUP", () => {
  for (const state of ["CREATED", "", "AWAITING PICKUP"]) expect(stopDone({ kind: "pickup", state })).toBe(false);
  for (const state of ["PICKED UP", "IN PROGRESS", "DELIVERED"]) expect(stopDone({ kind: "pickup", state })).toBe(true);
});

test("a delivery is done once delivered or closed, not while out for delivery", () => {
  for (const state of ["AWAITING DELIVERY", "OUT FOR DELIVERY", "Mosta", "PICKED UP"]) expect(stopDone({ kind: "delivery", state })).toBe(false);
  for (const state of ["DELIVERED", "DELIVERED AND PAID", "DELIVERED NOT PAID", "CLOSED"]) expect(stopDone({ kind: "delivery", state })).toBe(true);
});

test("a delivery whose ticket is still at the plant is not ready; a pickup never is flagged", () => {
  for (const state of ["TECNOWASH", "IN PROGRESS", "MARKED", "PICKED UP", "CREATED"]) expect(stopNotReady({ kind: "delivery", state })).toBe(true);
  for (const state of ["AWAITING DELIVERY", "OUT FOR DELIVERY", "Mosta", "DELIVERED"]) expect(stopNotReady({ kind: "delivery", state })).toBe(false);
  expect(stopNotReady({ kind: "pickup", state: "AWAITING PICKUP" })).toBe(false);
});
