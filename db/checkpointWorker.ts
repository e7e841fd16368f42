/**
 * The WAL checkpointer's thread (issue 33: the counter never waits for the box's own work).
 * libSQL runs a statement on the thread that calls it, so a checkpoint taken on the box's own
 * connection held every request for its whole length (2.3 s for the first one after a 1.5 GB
 * file was copied into place). Here it runs on a Worker with a connection of its own: WAL
 * lets a PASSIVE checkpoint go on beside readers and a writer, and the same libSQL library in
 * one process shares SQLite's locks (a second SQLite library would not: see
 * reports/child.ts). Messages: {id, url} → {id, busy, log, checkpointed} or {id, error}.
 */
import { type Client, createClient } from "@libsql/client";

declare const self: Worker;

let client: Client | null = null;

self.onmessage = async (e: MessageEvent<{ id: number; url: string }>) => {
  const { id, url } = e.data;
  try {
    if (!client) {
      client = createClient({ url, timeout: 5000 });
      // This connection only checkpoints: it never writes, so it never auto-checkpoints.
      await client.execute("PRAGMA wal_autocheckpoint=0");
    }
    const r = await client.execute("PRAGMA wal_checkpoint(PASSIVE)");
    const [busy, log, checkpointed] = Object.values(r.rows[0] ?? {}).map(Number) as [number, number, number];
    postMessage({ id, busy, log, checkpointed });
  } catch (err) {
    postMessage({ id, error: String((err as Error)?.message ?? err) });
  }
};
