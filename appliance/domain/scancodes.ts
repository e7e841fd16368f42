/**
 * Scan codes printed on labels and tickets (spec §9), pure so the tablet and the box read
 * them the same way.
 *
 *   ticket          !T!T:{ticketId}
 *   item            !I!I:{itemId},{desc},T:{ticketId},P:{piece}[,IA:{agent},DI:{date},CN:{customer},TOTAL:{price}]
 *   several items   !M!ITEMS:{id}-{id}-…[,T:{ticketId},TOTAL:{price}]
 *
 * Fields are KEY:value separated by commas; the value after I: may be followed by the
 * description without a key (the spec's '!I!I:{id},{desc}'). Values are percent-encoded
 * for ',', ':', '%' (and the letters unmangle rewrites) so any text survives; values are
 * trimmed and descriptions cut to 12 characters.
 */
export const DESC_LENGTH = 12;

export type ScanType = "ticket" | "item" | "multipleItems";

/** Spec §3 "Tracking scan item". */
export interface ScanItem {
  type: ScanType;
  TicketID?: number;
  ItemID?: number;
  ItemIDS?: number[];
  Agent?: string;
  Date?: string;
  Customer?: string;
  Desc?: string;
  Piece?: string;
  Price?: number;
}

// '%', ',' and ':' structure the code; 'Ö' and 'ß' would be read back as ':' and '-' (unmangle).
const enc = (v: string) => v.trim().replace(/[%,:Öß]/g, (c) => encodeURIComponent(c));
const dec = (v: string) => {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
};
export const cutDesc = (d: string) => [...d.trim()].slice(0, DESC_LENGTH).join("");

export function ticketCode(ticketId: number): string {
  return `!T!T:${ticketId}`;
}

export function itemCode(x: {
  itemId: number;
  desc: string;
  ticketId?: number;
  piece?: string;
  agent?: string;
  date?: string;
  customer?: string;
  price?: number;
}): string {
  const f = [`I:${x.itemId}`, enc(cutDesc(x.desc))];
  if (x.ticketId !== undefined) f.push(`T:${x.ticketId}`);
  for (const [k, v] of [
    ["P", x.piece],
    ["IA", x.agent],
    ["DI", x.date],
    ["CN", x.customer],
  ] as const)
    if (v?.trim()) f.push(`${k}:${enc(v)}`);
  if (x.price !== undefined) f.push(`TOTAL:${x.price}`);
  return `!I!${f.join(",")}`;
}

export function multipleCode(x: { itemIds: number[]; ticketId?: number; price?: number }): string {
  const f = [`ITEMS:${x.itemIds.join("-")}`];
  if (x.ticketId !== undefined) f.push(`T:${x.ticketId}`);
  if (x.price !== undefined) f.push(`TOTAL:${x.price}`);
  return `!M!${f.join(",")}`;
}

/**
 * Undoes what a keyboard-wedge gun sending US key codes does on a tablet set to another
 * layout. Our alphabet (digits, '!', ':', ',', '-', letters but Y/Z) comes through a UK
 * layout unchanged; on German QWERTZ ':' arrives as 'Ö' and '-' as 'ß'.
 */
export function unmangle(raw: string): string {
  return raw.trim().replace(/Ö/g, ":").replace(/ß/g, "-");
}

export class ScanCodeError extends Error {}

/** A record id: digits making a whole number the database can hold (beyond that, no record). */
function id(v: string, message: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n)) throw new ScanCodeError(message);
  return n;
}

/** Reads any of our codes; throws ScanCodeError with a message for the scan toast. */
export function parseScan(raw: string): ScanItem {
  let s = unmangle(raw);
  if (!s) throw new ScanCodeError("Ticket Number UNDEFINED!");
  // Staff type the number printed on the receipt (spec §2: "scan or manually enter"): a bare
  // number, with or without the receipt's '#', is a ticket id.
  const typed = /^#?(\d+)$/.exec(s);
  if (typed) return { type: "ticket", TicketID: id(typed[1]!, "Not a ticket number") };
  // Some guns send a prefix character first (spec §9): anything not starting with '!' loses it.
  if (!s.startsWith("!")) s = s.slice(1);
  const kind = s.slice(0, 3).toUpperCase();
  const body = kind === "!T!" || kind === "!M!" || kind === "!I!" ? s.slice(3) : s;
  const fields = new Map<string, string>();
  let lastKey = "";
  for (const part of body.split(",")) {
    const i = part.indexOf(":");
    if (i > 0 && /^[A-Z]+$/i.test(part.slice(0, i))) {
      lastKey = part.slice(0, i).toUpperCase();
      fields.set(lastKey, dec(part.slice(i + 1)));
    } else if (lastKey === "I" && !fields.has("D")) {
      fields.set("D", dec(part));
    }
  }
  const num = (k: string) => {
    const v = fields.get(k);
    return v === undefined ? undefined : id(v.trim(), `Scan code has a bad ${k} number`);
  };
  const text = (k: string) => fields.get(k);
  const price = fields.has("TOTAL") ? Number(fields.get("TOTAL")) : undefined;
  const common = { Agent: text("IA"), Date: text("DI"), Customer: text("CN"), Piece: text("P"), Price: Number.isFinite(price) ? price : undefined };
  const clean = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

  if (kind === "!T!") {
    const TicketID = num("T");
    if (!TicketID) throw new ScanCodeError("Not a ticket code");
    return clean({ type: "ticket", TicketID, ...common });
  }
  if (kind === "!M!") {
    const ids = (fields.get("ITEMS") ?? "").split("-").filter(Boolean);
    if (!ids.length) throw new ScanCodeError("Not a multiple-items code");
    return clean({ type: "multipleItems", ItemIDS: ids.map((x) => id(x, "Not a multiple-items code")), TicketID: num("T"), ...common });
  }
  const ItemID = num("I");
  if (!ItemID) throw new ScanCodeError("Not an Ironbox code");
  const Desc = text("D");
  return clean({ type: "item", ItemID, TicketID: num("T"), Desc: Desc === undefined ? undefined : cutDesc(Desc), ...common });
}
