import { gsm7Septets, isGsm7, splitSms } from "../../appliance/domain/sms";

/**
 * SMS-SUBMIT PDUs (3GPP TS 23.040 §9.2.2.2) for a GSM modem in PDU mode (AT+CMGF=0). Pure:
 * text in, hex strings out; the transport is gsmModem.ts.
 *
 * Why PDU mode rather than text mode: in text mode the modem, not us, decides how characters
 * become an SMS. With the GSM character set the message is raw GSM bytes, where Ξ is 0x1A
 * (Ctrl-Z, which ends the message) and every extension character (€ [ ] …) starts with 0x1B
 * (ESC, which cancels it); with the UCS2 character set, whether the modem re-encodes to
 * GSM-7 depends on the modem; and a concatenation header (UDH) has no standard form in text
 * mode at all. In PDU mode every byte is hex, so nothing in the text can end or cancel the
 * command, the encoding (GSM-7 or UCS-2, chosen like appliance/domain/sms.ts counts) is
 * exactly what we wrote, and long messages carry the standard concatenation header.
 */

export interface SubmitPdu {
  /** The hex string written after AT+CMGS=<tpduLength> and before Ctrl-Z. */
  hex: string;
  /** Octets after the SMSC field: the number AT+CMGS wants. */
  tpduLength: number;
}

/** Relative validity 0xAA: 4 days (a customer's phone may be off over a weekend). */
const VALIDITY_4_DAYS = 0xaa;

const hex = (bytes: ArrayLike<number>) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0").toUpperCase()).join("");

/**
 * The destination address: digits in swapped nibbles, F-padded; type 0x91 (international)
 * for +356…, 0x81 (unknown numbering plan, national) otherwise. Only digits are allowed.
 */
export function encodeAddress(number: string): number[] {
  const international = number.startsWith("+");
  const digits = international ? number.slice(1) : number;
  if (!/^\d{1,20}$/.test(digits)) throw new Error("A phone number is digits, optionally after +");
  const padded = digits.length % 2 ? `${digits}F` : digits;
  const out = [digits.length, international ? 0x91 : 0x81];
  for (let i = 0; i < padded.length; i += 2) out.push(Number.parseInt(`${padded[i + 1]}${padded[i]}`, 16));
  return out;
}

/** GSM-7 septets packed LSB first, after `fillBits` zero bits (to align after a UDH). */
export function packSeptets(septets: number[], fillBits = 0): number[] {
  const out: number[] = [];
  let acc = 0;
  let bits = fillBits;
  for (const s of septets) {
    acc |= (s & 0x7f) << bits;
    bits += 7;
    while (bits >= 8) {
      out.push(acc & 0xff);
      acc >>>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) out.push(acc & 0xff);
  return out;
}

/** UTF-16 units as big-endian octets: what UCS-2 (DCS 0x08) carries. */
export function ucs2Octets(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    out.push(u >> 8, u & 0xff);
  }
  return out;
}

/** The septets of a GSM-7 text (escapes included). */
function septetsOf(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) {
    const s = gsm7Septets(ch);
    if (!s) throw new Error(`Not in the GSM alphabet: ${ch}`);
    out.push(...s);
  }
  return out;
}

export interface Concatenation {
  /** Same for all parts of one message (8-bit). */
  ref: number;
  total: number;
  /** 1-based. */
  seq: number;
}

/** One SMS-SUBMIT: the text of one part, GSM-7 or UCS-2, with a concatenation UDH when split. */
export function encodeSubmit(to: string, text: string, encoding: "GSM-7" | "UCS-2", concat?: Concatenation): SubmitPdu {
  const udh = concat ? [0x05, 0x00, 0x03, concat.ref & 0xff, concat.total, concat.seq] : [];
  let udl: number;
  let ud: number[];
  if (encoding === "GSM-7") {
    // The header takes whole septets: pad it to the next septet boundary.
    const fill = udh.length ? (7 - ((udh.length * 8) % 7)) % 7 : 0;
    const septets = septetsOf(text);
    udl = Math.ceil((udh.length * 8) / 7) + septets.length;
    ud = [...udh, ...packSeptets(septets, fill)];
  } else {
    ud = [...udh, ...ucs2Octets(text)];
    udl = ud.length;
  }
  if (ud.length > 140) throw new Error("An SMS part holds at most 140 octets");
  const firstOctet = 0x01 /* SUBMIT */ | 0x10 /* relative validity */ | (udh.length ? 0x40 /* UDHI */ : 0);
  const tpdu = [
    firstOctet,
    0x00 /* MR: the modem sets it */,
    ...encodeAddress(to),
    0x00 /* PID */,
    encoding === "GSM-7" ? 0x00 : 0x08,
    VALIDITY_4_DAYS,
    udl,
    ...ud,
  ];
  // "00": no SMSC here, the SIM's own service centre is used.
  return { hex: `00${hex(tpdu)}`, tpduLength: tpdu.length };
}

/**
 * A whole message as the PDUs it is sent as: one, or the parts splitSms makes (153 septets /
 * 67 units each) with the same reference `ref` (derive it from the outbox key: a retry then
 * repeats the same parts rather than making a new message).
 */
export function encodeMessage(to: string, text: string, ref: number): SubmitPdu[] {
  const encoding = isGsm7(text) ? "GSM-7" : "UCS-2";
  const parts = splitSms(text);
  if (parts.length <= 1) return [encodeSubmit(to, text, encoding)];
  return parts.map((p, i) => encodeSubmit(to, p, encoding, { ref, total: parts.length, seq: i + 1 }));
}
