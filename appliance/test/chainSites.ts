/**
 * For the chain's tests and browser test: shop databases shipped to a file:// replica by a real
 * `litestream replicate`, as a shop box ships them to HQ, and a ticket written through a box's
 * API. Not used by the appliance.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { testBox } from "./harness";
import { LITESTREAM_BIN } from "../../drivers/replication/litestream";

/** A snapshot file in the replica (the first full upload of a generation). */
export function hasSnapshot(replica: string): boolean {
  const gens = join(replica, "generations");
  if (!existsSync(gens)) return false;
  return readdirSync(gens).some((g) => existsSync(join(gens, g, "snapshots")) && readdirSync(join(gens, g, "snapshots")).length > 0);
}

/**
 * Starts `litestream replicate <db> file://<replica>` and waits for the first snapshot.
 * `stop()` ends it (SIGTERM: Litestream syncs what it has before it exits).
 */
export async function replicate(dbFile: string, replica: string, timeoutMs = 20_000) {
  const child = Bun.spawn([LITESTREAM_BIN, "replicate", dbFile, `file://${replica}`], { stdout: "ignore", stderr: "pipe" });
  const until = Date.now() + timeoutMs;
  while (!hasSnapshot(replica)) {
    if (child.exitCode !== null || Date.now() > until) {
      child.kill("SIGKILL");
      throw new Error(`litestream replicate did not ship a snapshot: ${await new Response(child.stderr).text()}`);
    }
    await Bun.sleep(100);
  }
  return {
    child,
    /** Waits out one sync interval (1 s) so the writes so far are in the replica, then stops. */
    async stop(settleMs = 1500) {
      await Bun.sleep(settleMs);
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}

/** Makes a shop's database look one migration behind, written by release 0.0.1. */
export async function oneMigrationBehind(sql: (q: string) => Promise<unknown>) {
  await sql("DELETE FROM __drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM __drizzle_migrations)");
  await sql("UPDATE box_settings SET value = '0.0.1' WHERE key = 'release'");
}

type Call = (method: string, path: string, body?: unknown) => Promise<any>;

/** A confirmed, paid ticket of one garment for a new customer named `customer`: its id. */
export async function paidTicket(call: Call, customer: string): Promise<number> {
  const c = (await call("POST", "/customers/", { full_name: customer })).id as number;
  const t = (await call("POST", "/tickets/", { customer_id: c })).id as number;
  const garments = (await call("GET", "/garmentSubCategories/")) as { id: number; name: string }[];
  const shirt = garments.find((g) => g.name === "Shirt") ?? garments[0]!;
  await call("POST", "/ticketSubCategory/", { ticket_id: t, garment_sub_category_id: shirt.id });
  await call("PUT", `/tickets/${t}/confirm`);
  await call("PUT", `/tickets/paidFor/${t}`);
  return t;
}

/**
 * A demo shop box that takes one paid ticket for `customer` through its API and ships its
 * database to `<storage>/<site>` with a real `litestream replicate`. Demo boxes share their
 * data, so every site's new ticket has the same id: returned.
 */
export async function shipSite(
  storage: string,
  site: string,
  customer: string,
  now?: string,
  /** Changes the shop's database before it ships: by raw SQL, or through its API (`call`, as its HQ admin). */
  alter?: (sql: (q: string) => Promise<unknown>, call: Call) => Promise<void>,
): Promise<number> {
  const shop = await testBox({ demo: true, ...(now ? { now } : {}) });
  try {
    const token = await shop.employeeToken(1111);
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await shop.call(method, `/api/v1${path}`, { token, body });
      if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json.data;
    };
    const ticket = await paidTicket(call, customer);
    if (alter) await alter((q) => shop.database.client.execute(q), call);
    const rep = await replicate(join(shop.dir, "ironbox.db"), join(storage, site));
    await rep.stop();
    return ticket;
  } finally {
    shop.close();
  }
}

// `bun appliance/test/chainSites.ts <storage>`: mosta and birkirkara shipped today, and qormi a migration behind (the browser test's HQ).
if (import.meta.main) {
  const storage = process.argv[2];
  if (!storage) throw new Error("usage: bun appliance/test/chainSites.ts <storage folder>");
  const now = new Date().toISOString();
  const mosta = await shipSite(storage, "mosta", "Mosta Customer", now);
  const birkirkara = await shipSite(storage, "birkirkara", "Birkirkara Customer", now);
  // A third on the release before (one migration behind): HQ shows it and does not read it.
  await shipSite(storage, "qormi", "Qormi Customer", now, oneMigrationBehind);
  console.log(JSON.stringify({ mosta, birkirkara }));
}
