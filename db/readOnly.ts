import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import type { Db } from "./client";
import * as schema from "./schema";

/**
 * Runs `use` on a read-only connection (PRAGMA query_only) to the database at `url`, closed
 * afterwards: HQ reads a shop's restored copy this way for one lookup (issue 35). The copy is
 * replaced by a rename at each restore, so a connection kept open would go on reading the
 * file it replaced.
 */
export async function withReadOnly<T>(url: string, use: (db: Db) => Promise<T>): Promise<T> {
  const client = createClient({ url, timeout: 2000 });
  try {
    await client.execute("PRAGMA query_only = 1");
    return await use(drizzle(client, { schema }) as unknown as Db);
  } finally {
    client.close();
  }
}
