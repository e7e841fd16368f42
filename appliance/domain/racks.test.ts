import { describe, expect, test } from "bun:test";
import { LOCATION_MAX, parseRackCode, rackCode } from "./racks";
import { itemCode, multipleCode, parseScan, ticketCode } from "./scancodes";

describe("rack codes", () => {
  test("a rack label reads back as its name, through a gun's prefix and a German keyboard", () => {
    expect(rackCode("Rack A3")).toBe("!R!R:Rack A3");
    expect(parseRackCode(rackCode("Rack A3"))).toBe("Rack A3");
    expect(parseRackCode(`]${rackCode("B 12")}`)).toBe("B 12");
    expect(parseRackCode("!R!RÖShelf 2")).toBe("Shelf 2");
    // Structure characters survive.
    expect(parseRackCode(rackCode("Back, top: 50%"))).toBe("Back, top: 50%");
  });

  test("ticket and item codes are never racks, and a rack label is never a ticket or an item", () => {
    for (const code of [
      ticketCode(12),
      itemCode({ itemId: 5, desc: "Shirt", ticketId: 12, piece: "Shirt" }),
      multipleCode({ itemIds: [1, 2] }),
      "12",
      "#12",
      "R12",
    ])
      expect(parseRackCode(code)).toBeNull();
    expect(() => parseScan(rackCode("12"))).toThrow();
    expect(() => parseScan(rackCode("A1"))).toThrow();
  });

  test("an empty, over-long or control-character name is no rack", () => {
    expect(parseRackCode("!R!R:   ")).toBeNull();
    expect(parseRackCode(`!R!R:${"x".repeat(LOCATION_MAX + 1)}`)).toBeNull();
    expect(parseRackCode("!R!R:A%011")).toBeNull();
    expect(parseRackCode("!R!R:A%0A1")).toBe("A 1"); // a line break is only space
  });
});
