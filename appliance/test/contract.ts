import { isDeepStrictEqual } from "node:util";
import type { RouteDef } from "../http/route";

/**
 * The API's contract, enforced in every API test (issue 23): each answer of a route that
 * declares a `response` schema must parse with it unchanged. zod drops keys a schema does not
 * name, so an answer with an undeclared field differs after parsing, as does one missing a
 * field or with a wrong type. The harness runs this on every 200 it gets, not a sample.
 */
export class ContractBreach extends Error {}

interface Compiled {
  def: RouteDef;
  re: RegExp;
  params: number;
}

export function contractChecker(routes: readonly RouteDef[], base = "/api/v1") {
  const compiled: Compiled[] = routes.map((def) => ({
    def,
    re: new RegExp(`^${base}${def.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z_]\w*/g, "[^/]+")}$`),
    params: (def.path.match(/:/g) ?? []).length,
  }));
  /** The route Elysia serves for this request: a static segment wins over a parameter. */
  const find = (method: string, pathname: string) =>
    compiled.filter((c) => c.def.method === method && c.re.test(pathname)).sort((a, b) => a.params - b.params)[0]?.def;

  return {
    /** Throws a ContractBreach naming the route and the first difference. */
    check(method: string, pathname: string, status: number, json: unknown): void {
      if (status !== 200 || !json || typeof json !== "object" || (json as { success?: unknown }).success !== true) return;
      const def = find(method.toUpperCase(), pathname);
      if (!def?.response || def.raw) return;
      const data = (json as { data?: unknown }).data;
      const parsed = def.response.safeParse(data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ContractBreach(`${def.method} ${def.path} answered outside its response schema: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`);
      }
      if (!isDeepStrictEqual(parsed.data, data)) {
        throw new ContractBreach(`${def.method} ${def.path} answered fields its response schema does not declare: ${firstDifference(data, parsed.data)}`);
      }
    },
  };
}

/** Where an answer and its parsed form first part: a path and the key the schema dropped or changed. */
function firstDifference(answer: unknown, parsed: unknown, path = ""): string {
  if (Array.isArray(answer) && Array.isArray(parsed)) {
    for (let i = 0; i < answer.length; i++) {
      if (!isDeepStrictEqual(answer[i], parsed[i])) return firstDifference(answer[i], parsed[i], `${path}[${i}]`);
    }
  } else if (answer && parsed && typeof answer === "object" && typeof parsed === "object") {
    for (const k of Object.keys(answer)) {
      if (!(k in parsed)) return `${path}.${k} (not in the schema)`;
      const a = (answer as Record<string, unknown>)[k];
      const p = (parsed as Record<string, unknown>)[k];
      if (!isDeepStrictEqual(a, p)) return firstDifference(a, p, `${path}.${k}`);
    }
  }
  return `${path || "(root)"}: ${JSON.stringify(answer)?.slice(0, 80)} became ${JSON.stringify(parsed)?.slice(0, 80)}`;
}
