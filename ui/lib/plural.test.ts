import { expect, test } from "bun:test";
import { countOf } from "./plural";

test("one payment, not 1 payments; zero and many take the plural", () => {
  expect(countOf(1, "payment")).toBe("1 payment");
  expect(countOf(0, "payment")).toBe("0 payments");
  expect(countOf(2, "refund")).toBe("2 refunds");
  expect(countOf(1, "entry", "entries")).toBe("1 entry");
  expect(countOf(3, "entry", "entries")).toBe("3 entries");
});
