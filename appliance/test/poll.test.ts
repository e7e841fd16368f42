import { expect, test } from "bun:test";
import { until } from "./poll";

test("until returns the first truthy answer, and throws saying what never happened", async () => {
  let n = 0;
  expect(await until(() => (++n >= 3 ? n : 0), { what: "three looks", everyMs: 1 })).toBe(3);
  await expect(until(() => false, { what: "the impossible", ms: 30, everyMs: 5 })).rejects.toThrow("waited 30 ms: the impossible never happened");
});
