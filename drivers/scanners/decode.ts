/**
 * Turning what a barcode gun sends into scan strings. Pure: tested with recorded reports.
 *
 * A gun in USB HID keyboard mode sends 8-byte boot-protocol reports: byte 0 the modifier
 * bits (shift = 0x02 | 0x20), bytes 2..7 the usage ids of the keys held. A key counts when it
 * first appears in a report. US layout, as guns are configured by default.
 */
const SHIFT = 0x02 | 0x20;
const BASE: Record<number, [string, string]> = {};
for (let i = 0; i < 26; i++) BASE[0x04 + i] = [String.fromCharCode(97 + i), String.fromCharCode(65 + i)];
"1234567890".split("").forEach((c, i) => (BASE[0x1e + i] = [c, "!@#$%^&*()"[i]!]));
Object.assign(BASE, {
  0x2c: [" ", " "],
  0x2d: ["-", "_"],
  0x2e: ["=", "+"],
  0x2f: ["[", "{"],
  0x30: ["]", "}"],
  0x31: ["\\", "|"],
  0x33: [";", ":"],
  0x34: ["'", '"'],
  0x35: ["`", "~"],
  0x36: [",", "<"],
  0x37: [".", ">"],
  0x38: ["/", "?"],
});
const ENTER = new Set([0x28, 0x58]);

/** Keeps the keys held in the last report, so a held key is typed once. */
export function createHidDecoder(onCode: (code: string) => void) {
  let held = new Set<number>();
  let buffer = "";
  return (report: Uint8Array | number[]) => {
    const r = Array.from(report);
    const offset = r.length === 9 ? 1 : 0; // some devices prefix a report id
    const mod = r[offset] ?? 0;
    const keys = r.slice(offset + 2, offset + 8).filter((k) => k > 3);
    for (const k of keys) {
      if (held.has(k)) continue;
      if (ENTER.has(k)) {
        if (buffer) onCode(buffer);
        buffer = "";
      } else if (BASE[k]) buffer += BASE[k]![mod & SHIFT ? 1 : 0];
    }
    held = new Set(keys);
  };
}

/** Serial (CDC) guns send text lines: one code per line, CR, LF or CRLF. */
export function createLineDecoder(onCode: (code: string) => void) {
  let buffer = "";
  const dec = new TextDecoder();
  return (chunk: Uint8Array) => {
    buffer += dec.decode(chunk, { stream: true });
    const parts = buffer.split(/\r\n|\r|\n/);
    buffer = parts.pop() ?? "";
    for (const p of parts) if (p.trim()) onCode(p.trim());
    // A gun that never ends its line would grow this forever: a code is never this long.
    if (buffer.length > 4096) buffer = "";
  };
}
