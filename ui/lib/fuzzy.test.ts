import { expect, test } from "bun:test";
import { fuzzySearch } from "./fuzzy";

const garments = ["Shirt", "T-Shirt", "Suit 2pc", "Dress", "Trousers", "Blanket Double"].map((name, id) => ({ id, name }));
const byName = fuzzySearch<{ id: number; name: string }>((g) => [g.name]);
const names = (q: string) => byName(garments, q).map((g) => g.name);

test("a slip in a short word still finds it; a match in the middle of a name counts", () => {
  expect(names("shurt")).toEqual(expect.arrayContaining(["Shirt", "T-Shirt"]));
  expect(names("shirt")).toEqual(expect.arrayContaining(["Shirt", "T-Shirt"]));
  expect(names("double")).toEqual(["Blanket Double"]);
  expect(names("trosers")).toContain("Trousers");
});

test("a blank query keeps the list in its order; nonsense finds nothing", () => {
  expect(names("  ")).toEqual(garments.map((g) => g.name));
  expect(names("zzqqxx")).toEqual([]);
});

test("every field of a record is searched, blank ones skipped (spec §5: agents by name, phones, e-mail)", () => {
  const agents = [
    { id: 1, name: "Mosta", mobile: "79000001", email: null },
    { id: 2, name: "Birkirkara", mobile: null, email: "bkr@example.com" },
  ];
  const search = fuzzySearch<(typeof agents)[number]>((a) => [a.name, a.mobile, a.email]);
  expect(search(agents, "79000001").map((a) => a.id)).toEqual([1]);
  expect(search(agents, "bkr@").map((a) => a.id)).toEqual([2]);
  expect(search(agents, "Birkrkara").map((a) => a.id)).toEqual([2]);
});
