import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { encodeAddress, encodeMessage, encodeSubmit, packSeptets, ucs2Octets } from "./pdu";
import { decodeSubmit } from "./testing/pdu-decode";

describe("SMS-SUBMIT PDUs (3GPP 23.040)", () => {
  test("the textbook example: 'hellohello' to +46708251358", () => {
    // The widely published reference PDU for this message (validity 0xAA, GSM-7).
    expect(encodeSubmit("+46708251358", "hellohello", "GSM-7")).toEqual({
      hex: "0011000B916407281553F80000AA0AE8329BFD4697D9EC37",
      tpduLength: 23,
    });
  });

  test("addresses: international 0x91 with swapped nibbles and F padding; national 0x81; digits only", () => {
    expect(encodeAddress("+35699123456")).toEqual([11, 0x91, 0x53, 0x96, 0x19, 0x32, 0x54, 0xf6]);
    expect(encodeAddress("99123456")).toEqual([8, 0x81, 0x99, 0x21, 0x43, 0x65]);
    expect(() => encodeAddress("+356 99")).toThrow();
    expect(() => encodeAddress("+35699\r\n")).toThrow();
  });

  test("septet packing and UCS-2 octets", () => {
    expect(packSeptets([0x68, 0x65, 0x6c, 0x6c, 0x6f])).toEqual([0xe8, 0x32, 0x9b, 0xfd, 0x06]);
    expect(packSeptets([0x41], 1)).toEqual([0x82]);
    expect(ucs2Octets("Ċħ😀")).toEqual([0x01, 0x0a, 0x01, 0x27, 0xd8, 0x3d, 0xde, 0x00]);
  });

  test("Maltese text is UCS-2 (DCS 08) and reads back intact", () => {
    const text = "Ċensu, il-libsa tiegħek lesta";
    const [pdu] = encodeMessage("+35699123456", text, 7);
    const d = decodeSubmit(pdu?.hex ?? "");
    expect(d).toMatchObject({ to: "+35699123456", dcs: 8, text, concat: null });
    expect(d.tpduLength).toBe(pdu?.tpduLength as number);
  });

  test("a 300-character message is 2 GSM-7 parts (153 + 147) with one reference, in order", () => {
    const text = `${"Your order is ready. ".repeat(14)}Thanks!!!!!!!!!!!!!!!!!`.slice(0, 300);
    expect(text).toHaveLength(300);
    const pdus = encodeMessage("+35699123456", text, 0x42);
    const parts = pdus.map((p) => decodeSubmit(p.hex));
    expect(parts.map((p) => p.concat)).toEqual([
      { ref: 0x42, total: 2, seq: 1 },
      { ref: 0x42, total: 2, seq: 2 },
    ]);
    expect(parts.map((p) => p.text.length)).toEqual([153, 147]);
    expect(parts.map((p) => p.text).join("")).toBe(text);
  });

  test("property: any text survives encode → decode, part by part, within 140 octets", () => {
    const chars = [..."abcXYZ 019@£$¥èéΔ_ΦΞÆß!?€[]{}^~|\\\nċġħżĊĠĦŻ😀"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...chars), { minLength: 1, maxLength: 500 }), fc.integer({ min: 0, max: 255 }), (arr, ref) => {
        const text = arr.join("");
        const pdus = encodeMessage("+35679000000", text, ref);
        const parts = pdus.map((p) => decodeSubmit(p.hex));
        expect(parts.map((p) => p.text).join("")).toBe(text);
        for (const [i, p] of parts.entries()) {
          expect(p.tpduLength).toBe(pdus[i]?.tpduLength as number);
          expect(p.tpduLength).toBeLessThanOrEqual(140 + 20);
          if (parts.length > 1) expect(p.concat).toEqual({ ref, total: parts.length, seq: i + 1 });
        }
      }),
      { numRuns: 300 },
    );
  });
});
