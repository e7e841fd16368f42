import { expect, test } from "bun:test";
import { createHidDecoder, createLineDecoder } from "./decode";

/** Reports as a gun sends them for "!T!T:12" + Enter (shift held for ! and :). */
function reportsFor(text: string): number[][] {
  const usage: Record<string, [number, boolean]> = { "!": [0x1e, true], ":": [0x33, true], T: [0x17, true], "1": [0x1e, false], "2": [0x1f, false] };
  const out: number[][] = [];
  for (const ch of text) {
    const [k, shift] = usage[ch]!;
    out.push([shift ? 0x02 : 0, 0, k, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]);
  }
  out.push([0, 0, 0x28, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]);
  return out;
}

test("HID keyboard reports decode to the scanned text, one code per Enter", () => {
  const codes: string[] = [];
  const feed = createHidDecoder((c) => codes.push(c));
  for (const r of reportsFor("!T!T:12")) feed(r);
  for (const r of reportsFor("!T!T:21")) feed(r);
  expect(codes).toEqual(["!T!T:12", "!T!T:21"]);
});

test("a key held across reports is typed once; a report id prefix is skipped", () => {
  const codes: string[] = [];
  const feed = createHidDecoder((c) => codes.push(c));
  feed([0x01, 0, 0, 0x1e, 0, 0, 0, 0, 0]);
  feed([0x01, 0, 0, 0x1e, 0, 0, 0, 0, 0]);
  feed([0x01, 0, 0, 0x1e, 0x1f, 0, 0, 0, 0]);
  feed([0x01, 0, 0, 0x28, 0, 0, 0, 0, 0]);
  expect(codes).toEqual(["12"]);
});

test("serial lines split on CR, LF or CRLF across chunks", () => {
  const codes: string[] = [];
  const feed = createLineDecoder((c) => codes.push(c));
  const enc = new TextEncoder();
  feed(enc.encode("!T!T:1"));
  feed(enc.encode("2\r\n!I!I:5,Sh"));
  feed(enc.encode("irt\r!M!ITEMS:1-2\n\n"));
  expect(codes).toEqual(["!T!T:12", "!I!I:5,Shirt", "!M!ITEMS:1-2"]);
});
