import { useCallback, useEffect, useRef, useState } from "react";
import { deleteRecord, failureMessage } from "../components/records";
import { toast } from "../components/toast";
import { api, ApiError, type Query } from "./api";

export interface RecordOptions<T> {
  /** The collection path with its trailing slash, e.g. "/agents/". */
  path: string;
  /** Spec §2: 0 means a new record. */
  id: number;
  /** A new record's values, and the base a loaded record is laid over. */
  blank: T;
  query?: Query;
  /** Each loaded record (null for a new one), for state kept beside it (an address form, chips). */
  onLoad?: (r: T | null) => void;
}

export interface SaveOptions<R> {
  okText?: string;
  /** Spec §8 wording by default: a failed create shows the server's message, an update mostly not. */
  failText?: (e: unknown, isNew: boolean) => string;
  /** How to send, when not a plain POST (id 0) or PUT; answering null means nothing was saved (a dialog was cancelled). */
  send?: (body: unknown) => Promise<R | null | undefined>;
}

/**
 * The detail screens' record (agents, employees, customers, catalogue): load by id, save,
 * remove. One rule for a stale load: when the id changes before an answer comes, that answer
 * (or its error) is dropped. A load that fails toasts its message once and leaves `error`
 * set, for the screen to show instead of "Loading…".
 */
export function useRecord<T extends object>(o: RecordOptions<T>) {
  const { path, id } = o;
  const [record, setRecord] = useState<T>(o.blank);
  const [loaded, setLoaded] = useState(id === 0);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // blank, query and onLoad are often new objects on every render; the latest are used.
  const latest = useRef(o);
  latest.current = o;
  const shown = useRef(id);
  shown.current = id;

  const reload = useCallback(async (): Promise<T | null> => {
    const asked = id;
    try {
      const r = await api<T>("GET", `${path}${asked}`, { query: latest.current.query, quiet: true });
      if (shown.current !== asked) return null;
      setRecord({ ...latest.current.blank, ...r });
      latest.current.onLoad?.(r);
      setError(null);
      setLoaded(true);
      return r;
    } catch (e) {
      if (shown.current !== asked) return null;
      const message = e instanceof ApiError ? e.message : "Something went wrong";
      setError(message);
      // A 401 logs out instead (lib/api); the login screen says the rest.
      if (!(e instanceof ApiError && e.status === 401)) toast(message, "danger");
      return null;
    }
  }, [path, id]);

  useEffect(() => {
    setError(null);
    setLoaded(id === 0);
    if (id) {
      void reload();
      return;
    }
    setRecord(latest.current.blank);
    latest.current.onLoad?.(null);
  }, [id, reload]);

  const set = useCallback((patch: Partial<T>) => setRecord((prev) => ({ ...prev, ...patch })), []);

  /** Creates (id 0) or updates the record; toasts the outcome. The saved record, or null. */
  async function save<R = T>(body: unknown, opts: SaveOptions<R> = {}): Promise<R | null> {
    const isNew = id === 0;
    const send =
      opts.send ?? ((b: unknown) => (isNew ? api<R>("POST", path, { body: b, quiet: true }) : api<R>("PUT", `${path}${id}`, { body: b, quiet: true })));
    setSaving(true);
    try {
      const saved = await send(body);
      if (saved == null) return null;
      toast(opts.okText ?? "Information Saved");
      return saved;
    } catch (e) {
      toast((opts.failText ?? failureMessage)(e, isNew), "danger");
      return null;
    } finally {
      setSaving(false);
    }
  }

  /** Spec §5: asks first; id 0 makes no call. Whether the record was removed. */
  const remove = (okText: string, more: { confirm?: { title?: string; message?: string }; serverMessage?: boolean } = {}) =>
    deleteRecord({ path, id, okText, ...more });

  return { id, isNew: id === 0, record, set, setRecord, loaded, error, saving, reload, save, remove };
}
