import { expect, test } from "bun:test";
import { versionText } from "./version";

test("the Sites screen's version cell: schema and release, or a dash before the first restore", () => {
  expect(versionText({ version: 9, release: "99.0.0", status: "ahead" })).toBe("schema 9 · release 99.0.0");
  expect(versionText({ version: 7, release: null, status: "behind" })).toBe("schema 7");
  expect(versionText(null)).toBe("–");
});
