import { withReadOnly } from "../../../db/readOnly";
import { agentReads } from "../agents/reads";
import type { DbTarget } from "../reports/job";
import type { ChainShop } from "./model";

/**
 * GET /chain/shops (issue 34): each copy's agents, read on a read-only connection opened for
 * the one query (a copy is replaced by a rename at each restore, so none is kept open). A few
 * rows per copy, so on the request rather than in a report process; the copies in parallel.
 */
export async function shopsOfCopies(copies: DbTarget[]): Promise<ChainShop[]> {
  const each = await Promise.all(
    copies.map(async (c) => {
      const shops = await withReadOnly(c.url, (db) => agentReads(db).shops());
      return shops.map(({ id, ...s }): ChainShop => ({ site: c.site!, agent_id: id, ...s }));
    }),
  );
  return each.flat();
}
