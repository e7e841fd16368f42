/**
 * SMS length, as a phone network counts it (3GPP TS 23.038, "GSM 03.38").
 *
 * A text made only of the GSM 7-bit default alphabet travels as septets: 160 in one SMS; the
 * extension-table characters (`^ { } \ [ ~ ] | €` and form feed) are an escape plus a code,
 * so they count 2. Any other character (the Maltese ċ ġ ħ ż, Ħ, emoji...) makes the whole
 * text UCS-2: 70 UTF-16 units in one SMS. A longer text is sent as a concatenated SMS whose
 * header takes room: 153 septets or 67 units per part. A part never ends in the middle of an
 * escape or of a surrogate pair, so a phone joins the parts back into the original text.
 *
 * Pure: the template editor (UI), the outbox and the modem driver all count the same way.
 */

export type SmsEncoding = "GSM-7" | "UCS-2";

export interface SmsParts {
  encoding: SmsEncoding;
  /** Septets for GSM-7 (escaped characters count 2), UTF-16 units for UCS-2. */
  length: number;
  /** How many SMS the text takes; 0 for an empty text. */
  parts: number;
  /** Room in each part: 160/153 (GSM-7) or 70/67 (UCS-2), by whether the text is split. */
  perPart: number;
}

/** The default alphabet, indexed by its 7-bit code; 0x1B is the escape (no character). */
const BASIC = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u0000ÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" + "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";

/** The extension table: character → code sent after the escape 0x1B. */
const EXTENSION: ReadonlyMap<string, number> = new Map([
  ["\f", 0x0a],
  ["^", 0x14],
  ["{", 0x28],
  ["}", 0x29],
  ["\\", 0x2f],
  ["[", 0x3c],
  ["~", 0x3d],
  ["]", 0x3e],
  ["|", 0x40],
  ["€", 0x65],
]);

const BASIC_CODE: ReadonlyMap<string, number> = new Map([...BASIC].flatMap((ch, code) => (code === 0x1b ? [] : [[ch, code] as const])));

export const GSM7_ESCAPE = 0x1b;

/**
 * The septets one character takes in the default alphabet: `[code]`, `[0x1B, code]` for the
 * extension table, or null when the character is not in GSM-7 at all.
 */
export function gsm7Septets(ch: string): number[] | null {
  const basic = BASIC_CODE.get(ch);
  if (basic !== undefined) return [basic];
  const ext = EXTENSION.get(ch);
  return ext === undefined ? null : [GSM7_ESCAPE, ext];
}

/** The character for a septet (a basic code, or an extension code after an escape). */
export function gsm7Char(code: number, escaped: boolean): string | null {
  if (!escaped) return code === GSM7_ESCAPE ? null : (BASIC[code] ?? null);
  for (const [ch, c] of EXTENSION) if (c === code) return ch;
  return null;
}

/** True when every character of the text is in the GSM 7-bit alphabet (basic or extension). */
export function isGsm7(text: string): boolean {
  for (const ch of text) if (gsm7Septets(ch) === null) return false;
  return true;
}

const SINGLE = { "GSM-7": 160, "UCS-2": 70 } as const;
const MULTI = { "GSM-7": 153, "UCS-2": 67 } as const;

/** How much room one (code point) character takes in the given encoding. */
function weight(ch: string, encoding: SmsEncoding): number {
  return encoding === "GSM-7" ? (gsm7Septets(ch)?.length ?? 0) : ch.length;
}

function measure(text: string, encoding: SmsEncoding): number {
  let n = 0;
  for (const ch of text) n += weight(ch, encoding);
  return n;
}

/**
 * The text cut into the parts it is sent as: one part when it fits a single SMS, otherwise
 * parts of at most 153 septets / 67 units, cut between whole characters (an escaped
 * character or a surrogate pair stays in one part). Joining the parts gives the text back.
 */
export function splitSms(text: string): string[] {
  if (text === "") return [];
  const encoding: SmsEncoding = isGsm7(text) ? "GSM-7" : "UCS-2";
  if (measure(text, encoding) <= SINGLE[encoding]) return [text];
  const room = MULTI[encoding];
  const parts: string[] = [];
  let current = "";
  let used = 0;
  for (const ch of text) {
    const w = weight(ch, encoding);
    if (used + w > room) {
      parts.push(current);
      current = "";
      used = 0;
    }
    current += ch;
    used += w;
  }
  parts.push(current);
  return parts;
}

export function smsParts(text: string): SmsParts {
  const encoding: SmsEncoding = isGsm7(text) ? "GSM-7" : "UCS-2";
  const length = measure(text, encoding);
  const parts = splitSms(text).length;
  return { encoding, length, parts, perPart: parts > 1 ? MULTI[encoding] : SINGLE[encoding] };
}
