import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { itemCode, multipleCode, parseScan, ScanCodeError, ticketCode } from "./scancodes";

describe("scan codes", () => {
  test("the spec's examples", () => {
    expect(parseScan("!T!T:1234")).toEqual({ type: "ticket", TicketID: 1234 });
    expect(parseScan("!I!I:55,Shirt")).toEqual({ type: "item", ItemID: 55, Desc: "Shirt" });
    expect(parseScan("!M!ITEMS:1-2-3,T:9,TOTAL:12.5")).toEqual({ type: "multipleItems", ItemIDS: [1, 2, 3], TicketID: 9, Price: 12.5 });
  });

  test("a prefix character from the gun is stripped; descriptions are cut to 12", () => {
    expect(parseScan("]!T!T:77")).toEqual({ type: "ticket", TicketID: 77 });
    expect(parseScan("X!I!I:5,A very long description")).toMatchObject({ ItemID: 5, Desc: "A very long " });
    expect(itemCode({ itemId: 5, desc: "Wedding dress with train" })).toBe("!I!I:5,Wedding dres");
  });

  test("German layout mangling of ':' and '-' is undone", () => {
    expect(parseScan("!T!TÖ42")).toEqual({ type: "ticket", TicketID: 42 });
    expect(parseScan("!M!ITEMSÖ4ß5ß6")).toMatchObject({ ItemIDS: [4, 5, 6] });
  });

  test("a typed ticket number (as printed on the receipt) is a ticket", () => {
    // Before: '2' lost its first character as a gun prefix and read 'Not an Ironbox code'.
    expect(parseScan("2")).toEqual({ type: "ticket", TicketID: 2 });
    expect(parseScan(" 1042 ")).toEqual({ type: "ticket", TicketID: 1042 });
    expect(parseScan("#1042")).toEqual({ type: "ticket", TicketID: 1042 });
    expect(parseScan("007")).toEqual({ type: "ticket", TicketID: 7 });
    // Nothing typed is the spec's message; a number no record can have is refused, not looked up.
    expect(() => parseScan("")).toThrow("Ticket Number UNDEFINED!");
    expect(() => parseScan("99999999999999999999")).toThrow("Not a ticket number");
    // Control: codes still read as before, prefixed or not.
    expect(parseScan("]!T!T:77")).toEqual({ type: "ticket", TicketID: 77 });
    expect(parseScan("!I!I:5,Shirt")).toMatchObject({ type: "item", ItemID: 5 });
  });

  test("ids too large for any record are a bad code, in every kind", () => {
    for (const bad of ["!T!T:99999999999999999999", "!I!I:99999999999999999999", "!M!ITEMS:1-99999999999999999999"])
      expect(() => parseScan(bad)).toThrow(ScanCodeError);
  });

  test("bad codes give a readable error", () => {
    for (const bad of ["", "!T!T:abc", "!M!ITEMS:", "hello", "!I!I:x"]) expect(() => parseScan(bad)).toThrow(ScanCodeError);
    expect(() => parseScan("   ")).toThrow("Ticket Number UNDEFINED!");
  });

  test("property: every code we print reads back to what went in", () => {
    const text = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim().length > 0);
    fc.assert(
      fc.property(
        fc.nat({ max: 1e9 }).map((n) => n + 1),
        fc.nat({ max: 1e9 }).map((n) => n + 1),
        text,
        fc.option(text, { nil: undefined }),
        fc.option(text, { nil: undefined }),
        (itemId, ticketId, desc, piece, customer) => {
          const got = parseScan(itemCode({ itemId, ticketId, desc, piece, customer }));
          expect(got.type).toBe("item");
          expect(got.ItemID).toBe(itemId);
          expect(got.TicketID).toBe(ticketId);
          expect(got.Desc).toBe([...desc.trim()].slice(0, 12).join(""));
          expect(got.Piece).toBe(piece?.trim() || undefined);
          expect(got.Customer).toBe(customer?.trim() || undefined);
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.nat({ max: 1e7 }).map((n) => n + 1),
          { minLength: 1, maxLength: 50 },
        ),
        (ids) => expect(parseScan(multipleCode({ itemIds: ids })).ItemIDS).toEqual(ids),
      ),
    );
    fc.assert(
      fc.property(
        fc.nat({ max: 1e9 }).map((n) => n + 1),
        (id) => expect(parseScan(ticketCode(id)).TicketID).toBe(id),
      ),
    );
  });
});
