import { useCallback, useEffect, useRef, useState } from "react";
import { LoadFailed } from "../components/LoadFailed";
import { loadFailure } from "./api";

/**
 * A list loaded from the box, for screens and pickers (issue 25). `items` is null until the
 * first answer; a failed load keeps the items shown before and sets `error` (the screen shows
 * <LoadFailed> with `retry`), so a failure never looks like an empty result. Answers to a
 * load superseded by a newer one are dropped. `key` names what the load depends on (a path,
 * a term): a new key loads again.
 */
export function useList<T>(load: () => Promise<T[]>, key: string | number = "") {
  const latest = useRef(load);
  latest.current = load;
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const seq = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key names what the load depends on
  const reload = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const got = await latest.current();
      if (mine !== seq.current) return;
      setItems(got);
      setError(null);
    } catch (e) {
      if (mine !== seq.current) return;
      setError(loadFailure(e));
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [key]);
  useEffect(() => void reload(), [reload]);
  return { items, error, loading, retry: reload, setItems };
}

/**
 * A list that a screen shows beside something else (a picker's choices, a side list): its
 * items ([] until loaded), whether it loaded, and `failed`, the "Could not load" with Retry to
 * put where the list would be (issue 31), so a failure never passes for an empty list.
 */
export function usePickList<T>(load: () => Promise<T[]>, what: string, key: string | number = "") {
  const l = useList(load, key);
  const failed = <LoadFailed what={what} error={l.error} onRetry={() => void l.retry()} />;
  return { items: l.items ?? [], loaded: l.items !== null && !l.error, failed, retry: l.retry };
}
