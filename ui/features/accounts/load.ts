import { useCallback, useEffect, useRef, useState } from "react";
import { api, BASE, handleUnauthorized, loadFailure } from "../../lib/api";
import { currentToken } from "../../lib/session";
import { fileNameOf, save } from "../reporting/download";

/**
 * One GET for an accounts screen: the data, or the failure's message (shown with Retry by
 * LoadFailed, never as an empty table), and a reload after a change.
 */
export function useLoad<T>(path: string | null, query?: Record<string, string>) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = path === null ? null : `${path}?${new URLSearchParams(query).toString()}`;
  // Only the latest call's answer is shown: a statement is made in a process, so the screen's
  // first period can answer after the period typed since, and must not replace it.
  const latest = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key says everything the call uses
  const reload = useCallback(() => {
    if (path === null) return;
    const mine = ++latest.current;
    setError(null);
    api<T>("GET", path, { quiet: true, query }).then(
      (d) => mine === latest.current && setData(d),
      (e) => mine === latest.current && setError(loadFailure(e)),
    );
  }, [key]);
  useEffect(reload, [reload]);
  return { data, error, reload };
}

/**
 * Downloads a file route (CSV or PDF) with the caller's token and saves it; the box's message
 * on failure, so a failed download never saves an empty file.
 */
export async function downloadFile(path: string, fallback: string): Promise<string> {
  const token = currentToken();
  let res: Response;
  try {
    res = await fetch(`${BASE}${path}`, { cache: "no-store", headers: token ? { authorization: `token ${token}` } : {} });
  } catch {
    throw new Error("Cannot reach the box; check the Wi-Fi");
  }
  if (!res.ok) {
    const message = ((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? `The download failed (${res.status})`;
    if (res.status === 401) handleUnauthorized(message, token);
    throw new Error(message);
  }
  const name = fileNameOf(res.headers.get("content-disposition"), fallback);
  save(await res.blob(), name);
  return name;
}
