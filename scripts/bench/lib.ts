/** Shared benchmark helpers: percentiles and a booted appliance logged in as the demo admin. */
import { bootAppliance } from "../../appliance/boot";
import { loadConfig } from "../../appliance/platform/config";

export function percentiles(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
  return { n: s.length, p50: at(50), p95: at(95), p99: at(99), max: s[s.length - 1] ?? Number.NaN };
}

export const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

/**
 * Boots the real appliance on a data dir (as main.ts does, without a port) and returns a
 * caller that goes through the whole HTTP stack with the demo admin's token.
 */
export async function bootLoggedIn(dataDir: string, user = "hq", password = "hq-demo-2026", pin = 1111, env: Record<string, string> = {}) {
  const box = await bootAppliance(loadConfig({ IRONBOX_DATA_DIR: dataDir, ...env }), { log: () => {} });
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await box.app.handle(
      new Request(`http://localhost/api/v1${path}`, {
        method,
        headers: { ...(token ? { authorization: `token ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }),
    );
    return { status: res.status, json: (await res.json()) as any };
  };
  const agent = (await call("POST", "/login/agent", undefined, { user_name: user, password })).json.data as string;
  const employee = (await call("POST", "/login/employee", agent, { pin })).json.data as string;
  if (!employee) throw new Error("demo admin login failed: is this a reference data dir?");
  return { box, token: employee, call };
}

/**
 * Downloads a report through `handle` (the app in-process, or fetch over HTTP), counting bytes
 * and lines (CSV records, the header included) as they stream; `signal` stops it.
 */
export async function downloadReport(handle: (r: Request) => Promise<Response> | Response, url: string, token: string, signal?: AbortSignal) {
  const res = await handle(new Request(url, { headers: { authorization: `token ${token}` }, signal }));
  if (res.status !== 200 || !res.body) throw new Error(`report answered ${res.status}: ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    }
  } catch (e) {
    if (!signal?.aborted) throw e;
  }
  return { bytes, lines };
}
