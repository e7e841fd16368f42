import { expect, test } from "bun:test";
import { rawbtUrl } from "./rawbt";

const decode = (url: string) => new Uint8Array(Buffer.from(url.slice("intent:base64,".length, url.indexOf("#Intent")), "base64"));

test("the intent carries the exact bytes, including bytes above 0x7f, and names the RawBT app", () => {
  const bytes = Uint8Array.from({ length: 512 }, (_, i) => (i * 37) % 256);
  const url = rawbtUrl(bytes);
  expect(url.startsWith("intent:base64,")).toBe(true);
  expect(url.endsWith("#Intent;scheme=rawbt;package=ru.a402d.rawbtprinter;end;")).toBe(true);
  expect(decode(url)).toEqual(bytes);
});

test("a 200 kB batch of labels goes in one intent without overflowing the stack", () => {
  const bytes = Uint8Array.from({ length: 200_000 }, () => Math.floor(Math.random() * 256));
  expect(decode(rawbtUrl(bytes))).toEqual(bytes);
});
