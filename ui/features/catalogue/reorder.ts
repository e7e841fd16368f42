/**
 * Moves an item one place up (-1) or down (+1) among its siblings (the items `sameGroup`
 * says share its list) by swapping it with the neighbour in the whole list, so a list
 * filtered by group shows the new order. Unchanged at either end.
 */
export function moveAmong<T>(list: T[], item: T, by: -1 | 1, sameGroup: (a: T, b: T) => boolean): T[] {
  const siblings = list.filter((x) => sameGroup(x, item));
  const other = siblings[siblings.indexOf(item) + by];
  if (!other) return list;
  const i = list.indexOf(item);
  const j = list.indexOf(other);
  const next = [...list];
  [next[i], next[j]] = [other, item];
  return next;
}

/** Modifiers in the order to save (PUT /modifiers/reOrder): each root, then its sub-modifiers, type by type. */
export function modifierOrder<T extends { id: number; type: string; parent_id: number }>(mods: T[], types: readonly string[]): number[] {
  return types.flatMap((type) =>
    mods.filter((m) => m.type === type && m.parent_id === 0).flatMap((root) => [root.id, ...mods.filter((s) => s.parent_id === root.id).map((s) => s.id)]),
  );
}
