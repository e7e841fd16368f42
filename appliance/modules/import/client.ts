// A client of the old system's API (spec §7): the two-level login (agent, then an admin's
// PIN) and its GET routes, every answer bounded in size and time and checked to be the
// spec's JSON envelope. It never writes to the old system: only the two logins are POSTs.

/** Spec §9: every request gives up after 30 s. */
const TIMEOUT_MS = 30_000;
/** No answer is read past this size: a page of 200 tickets with their items is ~2 MB. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** A 5xx or a dropped connection is tried again this many times, then the page is refused. */
const RETRIES = 2;

export class SourceError extends Error {
  constructor(
    message: string,
    /** True when trying again may help (5xx, network); false for a bad answer. */
    readonly transient = false,
    readonly status = 0,
  ) {
    super(message);
  }
}

export interface SourceOptions {
  /** The old system's base URL (with or without /api/v1). */
  from: string;
  user: string;
  password: string;
  pin: string;
  /** Tests route requests elsewhere; the default is the global fetch. */
  fetch?: typeof fetch;
  maxBytes?: number;
  /** Waits between retries (ms); tests pass 0. */
  retryDelayMs?: number;
}

export type Source = Awaited<ReturnType<typeof connectSource>>;

/** The API base: `--from http://old:8080` and `--from http://old:8080/api/v1` mean the same. */
export function apiBase(from: string): string {
  const u = from.replace(/\/+$/, "");
  return u.endsWith("/api/v1") ? u : `${u}/api/v1`;
}

/** Reads a body up to `max` bytes; a larger one is cut off and refused, never buffered whole. */
async function boundedText(res: Response, max: number): Promise<string> {
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > max) {
    await res.body?.cancel();
    throw new SourceError(`answer is larger than ${Math.round(max / 1048576)} MB`);
  }
  if (!res.body) return "";
  // A declared length within the bound and no compression (HTTP framing stops the body there):
  // read natively in one go; reading a 1 MB page chunk by chunk cost a quarter of the
  // import's CPU. A compressed body may grow past its length, so it is read chunk by chunk.
  const encoding = res.headers.get("content-encoding");
  if (declared > 0 && (!encoding || encoding === "identity")) return res.text();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new SourceError(`answer is larger than ${Math.round(max / 1048576)} MB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Logs in (agent, then employee PIN) and returns a reader of the old system's GET routes. */
export async function connectSource(o: SourceOptions) {
  const base = apiBase(o.from);
  const doFetch = o.fetch ?? fetch;
  const max = o.maxBytes ?? MAX_ANSWER_BYTES;
  const delay = o.retryDelayMs ?? 500;
  let token = "";
  let requests = 0;

  async function once(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
    requests++;
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method,
        headers: {
          accept: "application/json",
          "cache-control": "no-cache",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(token ? { authorization: `token ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: "error",
      });
    } catch (e) {
      throw new SourceError(`no answer (${(e as Error).name === "TimeoutError" ? "timed out after 30 s" : (e as Error).message})`, true);
    }
    const text = await boundedText(res, max);
    const type = res.headers.get("content-type") ?? "";
    if (res.status >= 500) throw new SourceError(`the old system failed (HTTP ${res.status})`, true, res.status);
    if (!type.includes("json") || /^\s*</.test(text))
      throw new SourceError(
        `answered ${/html/i.test(type) || /^\s*</.test(text) ? "HTML" : type || "no type"}, not JSON (HTTP ${res.status})`,
        false,
        res.status,
      );
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new SourceError(`answered broken JSON (HTTP ${res.status})`, false, res.status);
    }
    const env = json as { success?: unknown; data?: unknown; message?: unknown };
    if (typeof env !== "object" || env === null || typeof env.success !== "boolean")
      throw new SourceError("answered JSON without the {success, data} envelope", false, res.status);
    if (!env.success || res.status >= 400) {
      const msg = typeof env.message === "string" ? env.message.slice(0, 200) : "";
      throw new SourceError(`refused (HTTP ${res.status}${msg ? `: ${msg}` : ""})`, false, res.status);
    }
    return env.data;
  }

  async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await once(method, path, body);
      } catch (e) {
        if (!(e instanceof SourceError) || !e.transient || attempt >= RETRIES) throw e;
        if (delay) await Bun.sleep(delay * (attempt + 1));
      }
    }
  }

  const agentToken = await call("POST", "/login/agent", { user_name: o.user, password: o.password }).catch((e) => {
    throw new SourceError(`agent login failed: ${(e as Error).message}`);
  });
  if (typeof agentToken !== "string") throw new SourceError("agent login answered no token");
  token = agentToken;
  // Spec §7 sends the PIN as an integer; Ironbox also takes the string (keeps leading zeros).
  const pin = /^0/.test(o.pin) ? o.pin : Number(o.pin);
  const employeeToken = await call("POST", "/login/employee", { pin }).catch((e) => {
    throw new SourceError(`employee login failed: ${(e as Error).message}`);
  });
  if (typeof employeeToken !== "string") throw new SourceError("employee login answered no token");
  token = employeeToken;

  return {
    base,
    /** GET a route; the answer's `data`. */
    get: (path: string) => call("GET", path),
    /** GET a route that answers a list; anything else is a bad answer. */
    async list(path: string): Promise<unknown[]> {
      const d = await call("GET", path);
      if (!Array.isArray(d)) throw new SourceError(`${path.split("?")[0]} answered something other than a list`);
      return d;
    },
    get requests() {
      return requests;
    },
    async logout() {
      token = agentToken;
      await call("GET", "/logout/agent").catch(() => {});
    },
  };
}
