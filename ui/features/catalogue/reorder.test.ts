import { expect, test } from "bun:test";
import { modifierOrder, moveAmong } from "./reorder";

const m = (id: number, type: string, parent_id = 0) => ({ id, type, parent_id });
const sameParent = (a: ReturnType<typeof m>, b: ReturnType<typeof m>) => a.type === b.type && a.parent_id === b.parent_id;

test("an item moves past its sibling only, skipping items of other groups", () => {
  const list = [m(1, "STAIN"), m(2, "STAIN", 1), m(3, "STAIN", 1), m(4, "STAIN"), m(5, "COLOR")];
  expect(moveAmong(list, list[3]!, -1, sameParent).map((x) => x.id)).toEqual([4, 2, 3, 1, 5]);
  expect(moveAmong(list, list[1]!, 1, sameParent).map((x) => x.id)).toEqual([1, 3, 2, 4, 5]);
  // At either end nothing moves.
  expect(moveAmong(list, list[0]!, -1, sameParent)).toBe(list);
  expect(moveAmong(list, list[4]!, 1, sameParent)).toBe(list);
});

test("the saved order is type by type, each root followed by its sub-modifiers", () => {
  const list = [m(5, "COLOR"), m(4, "STAIN"), m(2, "STAIN", 1), m(1, "STAIN"), m(3, "STAIN", 1)];
  expect(modifierOrder(list, ["STAIN", "COLOR"])).toEqual([4, 1, 2, 3, 5]);
});
