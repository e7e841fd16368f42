import Fuse from "fuse.js";

/**
 * Spec §5's fuzzy search for the short lists the tablet filters itself: agents, employees,
 * actions, garment categories and the counter's garment picker. The spec names two settings:
 * threshold 0 with distance 10 for data searches, threshold 0.3 for the select control.
 * Customer search stays on the server (trigram index). These lists are pickers in practice, so
 * they take the select control's 0.3: one slip in a short word still finds it ("Borh" finds
 * "Borg", "shurt" finds "Shirt"). `ignoreLocation` because a name matched in its middle
 * ("Shirt" in "T-Shirt") is what staff already rely on; the spec's distance only makes sense
 * with a fixed location, and would hide those. docs/decisions/fuzzy-search-tablets-short-lists.md records this.
 */
export const SELECT_SEARCH = { threshold: 0.3, ignoreLocation: true } as const;

/**
 * A search over a list by the texts `fields` gives each item (blank ones are skipped). A blank
 * query keeps the whole list in its order; otherwise the best matches come first.
 */
export function fuzzySearch<T>(fields: (item: T) => ReadonlyArray<string | null | undefined>) {
  let last: { items: readonly T[]; fuse: Fuse<T> } | null = null;
  // Generic over the items' own type: a picker keeps its richer rows (an id, a picture).
  return <U extends T>(items: readonly U[], query: string): U[] => {
    const q = query.trim();
    if (!q) return [...items];
    let fuse = last?.items === items ? last.fuse : null;
    if (!fuse) {
      fuse = new Fuse<T>(items, { ...SELECT_SEARCH, keys: [{ name: "text", getFn: (i: T) => fields(i).filter((v): v is string => !!v) }] });
      last = { items, fuse };
    }
    return fuse.search(q).map((r) => r.item as U);
  };
}
