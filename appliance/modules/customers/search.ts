/**
 * Fuzzy customer search helpers (pure). The database narrows the candidates with the FTS5
 * trigram index; these functions build its queries and rank what comes back.
 */

const ASCII = /^[\x00-\x7f]*$/;

/** Lower-case, accents folded, whitespace collapsed: how both sides are compared. */
export function normalise(s: string): string {
  // Plain ASCII has nothing to decompose or fold (most names and every phone): skip NFKD.
  if (ASCII.test(s)) return s.toLowerCase().replace(/\s+/g, " ").trim();
  return s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

export function trigrams(s: string): string[] {
  const n = normalise(s);
  const out = new Set<string>();
  for (let i = 0; i + 3 <= n.length; i++) out.add(n.slice(i, i + 3));
  return [...out];
}

/** An FTS5 string literal: the trigram tokenizer then matches it as a substring. */
export const ftsLiteral = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * How well a term matches a customer's fields, 0..1: a substring match of the whole term
 * scores highest (earlier and in the name better), otherwise the share of the term's
 * trigrams found in the best field, which tolerates a typo or two in a longer word.
 */
export function score(term: string, fields: readonly string[]): number {
  return scorer(term)(fields);
}

/**
 * `score` for one term over many candidates (a typo pass scores 200): the term is normalised
 * and cut into trigrams once, and a trigram of the term is looked for in a field as a substring
 * (a field holds a trigram exactly when it contains those three characters), rather than
 * building each field's set of trigrams (issue 33: scoring was a quarter of a search's CPU).
 */
export function scorer(term: string): (fields: readonly string[]) => number {
  const t = normalise(term);
  const tg = t ? trigrams(t) : [];
  return (fields) => {
    if (!t) return 0;
    let best = 0;
    for (let i = 0; i < fields.length; i++) {
      const f = normalise(fields[i]!);
      if (!f) continue;
      const at = f.indexOf(t);
      if (at >= 0) {
        best = Math.max(best, 0.9 + (at === 0 ? 0.05 : 0) + (i === 0 ? 0.05 : 0));
        continue;
      }
      if (tg.length === 0) continue;
      let hits = 0;
      for (const g of tg) if (f.includes(g)) hits++;
      best = Math.max(best, (0.85 * hits) / tg.length);
    }
    return best;
  };
}
