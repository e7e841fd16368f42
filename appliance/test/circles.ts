/**
 * Import circles (issue 31): the strongly connected parts of a file import graph (Tarjan), for
 * the layers test's rule 7. Iterative, so a deep chain of imports cannot overflow the stack.
 */

/** Every circle of the graph (a part of two or more files that import each other, directly or not), each sorted. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    // Each frame: a file and how many of its imports were walked.
    const frames: [string, number][] = [[root, 0]];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (frames.length) {
      const frame = frames[frames.length - 1]!;
      const [v, i] = frame;
      const edges = graph.get(v) ?? [];
      if (i < edges.length) {
        frame[1] = i + 1;
        const w = edges[i]!;
        if (!graph.has(w)) continue;
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          frames.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      frames.pop();
      if (frames.length) {
        const up = frames[frames.length - 1]![0];
        low.set(up, Math.min(low.get(up)!, low.get(v)!));
      }
      if (low.get(v) !== index.get(v)) continue;
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1) out.push(part.sort());
    }
  }
  return out;
}
