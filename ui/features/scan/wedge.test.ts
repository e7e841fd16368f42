import { expect, test } from "bun:test";
import { isWedgeBurst } from "./wedge";

test("a fast burst counts; a person typing slowly does not", () => {
  expect(isWedgeBurst("123456", 6 * 30)).toBe(true);
  expect(isWedgeBurst("123456", 6 * 250)).toBe(false);
  expect(isWedgeBurst("12", 10)).toBe(false); // too short to be a code
});

test("a label code counts however slowly its keys came (a loaded tablet spaces them out)", () => {
  expect(isWedgeBurst("!T!T:4512", 9 * 300)).toBe(true);
  expect(isWedgeBurst("!I!I:77,SHIRT,T:12", 18 * 300)).toBe(true);
  expect(isWedgeBurst("!M!ITEMS:1-2", 12 * 300)).toBe(true);
  expect(isWedgeBurst("hello world", 11 * 300)).toBe(false);
});
