import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { gsm7Char, gsm7Septets, isGsm7, smsParts, splitSms } from "./sms";

const GSM_BASIC = [..."@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡AZÄÖÑÜ§¿azäöñüà"];
const GSM_EXT = [..."^{}\\[~]|€\f"];
const OTHER = [..."ċġħżĊĠĦŻçâ😀𝄞中"];
const anyText = fc.array(fc.constantFrom(...GSM_BASIC, ...GSM_EXT, ...OTHER), { maxLength: 400 }).map((a) => a.join(""));
const gsmText = fc.array(fc.constantFrom(...GSM_BASIC, ...GSM_EXT), { maxLength: 500 }).map((a) => a.join(""));

/** Septets or units a part takes, counted independently of the module. */
const cost = (s: string, gsm: boolean) => (gsm ? [...s].reduce((n, ch) => n + (GSM_EXT.includes(ch) ? 2 : 1), 0) : s.length);

describe("SMS length (GSM 03.38)", () => {
  test("plain text is GSM-7: 160 in one SMS, 153 per part after that", () => {
    expect(smsParts("a".repeat(160))).toEqual({ encoding: "GSM-7", length: 160, parts: 1, perPart: 160 });
    expect(smsParts("a".repeat(161))).toEqual({ encoding: "GSM-7", length: 161, parts: 2, perPart: 153 });
    expect(smsParts("a".repeat(306)).parts).toBe(2);
    expect(smsParts("a".repeat(307)).parts).toBe(3);
    expect(smsParts("")).toEqual({ encoding: "GSM-7", length: 0, parts: 0, perPart: 160 });
  });

  test("extension characters count 2; € at the 160th septet makes a second SMS", () => {
    expect(smsParts("€[]").length).toBe(6);
    expect(smsParts(`${"a".repeat(158)}€`)).toMatchObject({ length: 160, parts: 1 });
    expect(smsParts(`${"a".repeat(159)}€`)).toMatchObject({ length: 161, parts: 2 });
  });

  test("Maltese ċ ġ ħ ż force UCS-2: 70 in one SMS, 67 per part", () => {
    for (const ch of "ċġħżĊĠĦŻ") expect(smsParts(`Grazzi ${ch}`).encoding).toBe("UCS-2");
    const msg = "Ċensu, il-libsa tiegħek lesta";
    expect(smsParts(msg)).toEqual({ encoding: "UCS-2", length: msg.length, parts: 1, perPart: 70 });
    expect(smsParts("ħ".repeat(70)).parts).toBe(1);
    expect(smsParts("ħ".repeat(71))).toMatchObject({ parts: 2, perPart: 67 });
    expect(smsParts("ħ".repeat(134)).parts).toBe(2);
    expect(smsParts("ħ".repeat(135)).parts).toBe(3);
  });

  test("Latin letters of the default alphabet stay GSM-7; ç and â do not", () => {
    expect(isGsm7("Ç é è ù ì ò Ä Ö Ñ Ü ß")).toBe(true);
    expect(isGsm7("ç")).toBe(false);
    expect(isGsm7("â")).toBe(false);
  });

  test("the septet tables round-trip", () => {
    for (const ch of [...GSM_BASIC, ...GSM_EXT]) {
      const s = gsm7Septets(ch);
      expect(s).not.toBeNull();
      expect(s && gsm7Char(s[s.length - 1] as number, s.length === 2)).toBe(ch);
    }
    expect(gsm7Char(0x1b, false)).toBeNull();
  });

  test("property: the parts join back to the text, each fits its room, counts agree", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const parts = splitSms(text);
        const info = smsParts(text);
        const gsm = info.encoding === "GSM-7";
        expect(parts.join("")).toBe(text);
        expect(parts.length).toBe(info.parts);
        expect(info.length).toBe(cost(text, gsm));
        for (const p of parts) {
          expect(p.length).toBeGreaterThan(0);
          expect(cost(p, gsm)).toBeLessThanOrEqual(info.perPart);
        }
        // Greedy cutting: no part could have taken the next part's first character.
        for (let i = 0; i + 1 < parts.length; i++) {
          const next = [...(parts[i + 1] as string)][0] as string;
          expect(cost((parts[i] as string) + next, gsm)).toBeGreaterThan(info.perPart);
        }
      }),
      { numRuns: 400 },
    );
  });

  test("property: no part starts or ends with half a surrogate pair", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        for (const p of splitSms(text)) {
          const first = p.charCodeAt(0);
          const last = p.charCodeAt(p.length - 1);
          expect(first >= 0xdc00 && first <= 0xdfff).toBe(false);
          expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
        }
      }),
    );
  });

  test("property: GSM-7 texts use ceil(length / 153) parts when no escape straddles a cut", () => {
    fc.assert(
      fc.property(gsmText, (text) => {
        const { length, parts } = smsParts(text);
        if (length <= 160) expect(parts).toBe(text === "" ? 0 : 1);
        else {
          // An escape never splits, so a part may hold 152: at least ceil(n/153) parts, never more than ceil(n/152).
          expect(parts).toBeGreaterThanOrEqual(Math.ceil(length / 153));
          expect(parts).toBeLessThanOrEqual(Math.ceil(length / 152));
        }
      }),
    );
  });
});
