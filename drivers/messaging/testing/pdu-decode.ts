import { gsm7Char } from "../../../appliance/domain/sms";

/**
 * Reads an SMS-SUBMIT PDU the way a network would (3GPP TS 23.040), for the modem simulator
 * and the encoder's tests: written from the standard, not from pdu.ts, so a mistake in the
 * encoder does not cancel out here.
 */
export interface DecodedSubmit {
  to: string;
  dcs: number;
  text: string;
  concat: { ref: number; total: number; seq: number } | null;
  tpduLength: number;
}

export function decodeSubmit(hexText: string): DecodedSubmit {
  if (!/^([0-9A-Fa-f]{2})+$/.test(hexText)) throw new Error("not hex");
  const b = Buffer.from(hexText, "hex");
  let i = 0;
  const take = () => {
    if (i >= b.length) throw new Error("PDU too short");
    return b[i++] as number;
  };
  const smscLen = take();
  i += smscLen;
  const tpduStart = i;
  const fo = take();
  if ((fo & 0x03) !== 0x01) throw new Error("not an SMS-SUBMIT");
  take(); // MR
  const digits = take();
  const toa = take();
  let to = "";
  for (let k = 0; k < Math.ceil(digits / 2); k++) {
    const o = take();
    to += (o & 0x0f).toString(16) + (o >> 4).toString(16);
  }
  to = to.slice(0, digits);
  if (!/^\d+$/.test(to)) throw new Error("address is not digits");
  if (toa === 0x91) to = `+${to}`;
  take(); // PID
  const dcs = take();
  const vpf = (fo >> 3) & 0x03;
  if (vpf === 2) take();
  else if (vpf === 1 || vpf === 3) i += 7;
  const udl = take();
  const ud = b.subarray(i);
  const udhi = (fo & 0x40) !== 0;
  let concat: DecodedSubmit["concat"] = null;
  let udhOctets = 0;
  if (udhi) {
    udhOctets = (ud[0] as number) + 1;
    for (let k = 1; k < udhOctets; ) {
      const iei = ud[k] as number;
      const len = ud[k + 1] as number;
      if (iei === 0x00 && len === 3) concat = { ref: ud[k + 2] as number, total: ud[k + 3] as number, seq: ud[k + 4] as number };
      k += 2 + len;
    }
  }
  let text = "";
  if (dcs === 0x00) {
    const headerSeptets = Math.ceil((udhOctets * 8) / 7);
    const septets: number[] = [];
    for (let s = headerSeptets; s < udl; s++) {
      const bit = s * 7;
      const lo = ud[bit >> 3] ?? 0;
      const hi = ud[(bit >> 3) + 1] ?? 0;
      septets.push((((hi << 8) | lo) >> (bit & 7)) & 0x7f);
    }
    if (Math.ceil((udl * 7) / 8) !== ud.length) throw new Error(`UDL ${udl} does not match ${ud.length} octets`);
    for (let s = 0; s < septets.length; s++) {
      const escaped = septets[s] === 0x1b;
      const code = escaped ? septets[++s] : septets[s];
      const ch = gsm7Char(code as number, escaped);
      if (ch === null) throw new Error(`bad septet ${code}`);
      text += ch;
    }
  } else if (dcs === 0x08) {
    if (udl !== ud.length) throw new Error(`UDL ${udl} does not match ${ud.length} octets`);
    const body = ud.subarray(udhOctets);
    for (let k = 0; k + 1 < body.length; k += 2) text += String.fromCharCode(((body[k] as number) << 8) | (body[k + 1] as number));
  } else throw new Error(`unexpected DCS ${dcs}`);
  return { to, dcs, text, concat, tpduLength: b.length - tpduStart };
}
