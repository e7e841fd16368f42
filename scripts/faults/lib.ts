/** Shared by the fault scripts: the real appliance as a child process, a burst of counter writes, and the after-crash check. */
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { checkPaymentSums } from "../../appliance/modules/money/check";
import { type Database, openDatabase } from "../../db/client";
import { recomputeTicket } from "../../appliance/modules/tickets/totals";

export interface Box {
  base: string;
  child: ReturnType<typeof Bun.spawn>;
}

/** Starts `bun appliance/main.ts` on a data dir and waits until it answers; `extraEnv` presets more (a gateway URL…). */
export async function startBox(dataDir: string, port: number, demo: boolean, extraEnv: Record<string, string> = {}): Promise<Box> {
  const base = `http://127.0.0.1:${port}/api/v1`;
  const env = {
    ...process.env,
    IRONBOX_DATA_DIR: dataDir,
    IRONBOX_PORT: String(port),
    IRONBOX_MDNS: "0",
    IRONBOX_SYSFS_ROOT: join(dataDir, "sys"),
    IRONBOX_DEV_ROOT: join(dataDir, "dev"),
    ...(demo ? { IRONBOX_DEMO: "1" } : {}),
    ...extraEnv,
  };
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "../../appliance/main.ts")], { env, stdout: "ignore", stderr: "pipe" });
  for (let i = 0; i < 300; i++) {
    if (
      // Bounded: a request the starting box accepted but never answered must not hang the run.
      await fetch(`${base}/health`, { signal: AbortSignal.timeout(2000) })
        .then((r) => r.ok)
        .catch(() => false)
    )
      return { base, child };
    await Bun.sleep(50);
  }
  throw new Error(`the box did not start: ${await new Response(child.stderr as ReadableStream).text()}`);
}

export async function call(base: string, method: string, path: string, token?: string, body?: unknown) {
  const r = await fetch(base + path, {
    method,
    headers: { ...(token ? { authorization: `token ${token}` } : {}), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    // Bounded (a loaded machine answers slowly, a frozen box never): no unacknowledged call counts.
    signal: AbortSignal.timeout(60_000),
  });
  const json = (await r.json()) as { success: boolean; data: any; message?: string };
  if (!r.ok || !json.success) throw new Error(`${method} ${path}: ${r.status} ${json.message}`);
  return json.data;
}

/** What the box acknowledged (answered 200 to): it must all survive whatever happens next. */
export interface Acked {
  tickets: Set<number>;
  items: Set<number>;
  /** Ticket id → total paid in cents, as acknowledged. */
  paid: Map<number, number>;
  writes: number;
}
export const newAcked = (): Acked => ({ tickets: new Set(), items: new Set(), paid: new Map(), writes: 0 });

/**
 * Starts `workers` clients that each open a ticket, add items and pay in full, over and over,
 * recording every acknowledged write. Returns a stop function that resolves when they have.
 */
export async function burst(box: Box, acked: Acked, workers: number, label: string) {
  const agent = await call(box.base, "POST", "/login/agent", undefined, { user_name: "hq", password: "hq-demo-2026" });
  const token = await call(box.base, "POST", "/login/employee", agent, { pin: 1111 });
  const garments = ((await call(box.base, "GET", "/garmentSubCategories/", token)) as { id: number; name: string }[]).filter((g) =>
    ["Suit 2pc", "Shirt", "Dress", "Trousers"].includes(g.name),
  );
  const customer = (await call(box.base, "POST", "/customers/", token, { full_name: `Fault ${label}` })).id as number;
  let stop = false;
  const client = async (w: number) => {
    for (let n = 0; !stop; n++) {
      try {
        const t = (await call(box.base, "POST", "/tickets/", token, { customer_id: customer })).id as number;
        acked.tickets.add(t);
        acked.writes++;
        for (const g of garments.slice(0, 1 + ((n + w) % garments.length))) {
          const [item] = await call(box.base, "POST", "/ticketSubCategory/", token, { ticket_id: t, garment_sub_category_id: g.id });
          acked.items.add(item.id);
          acked.writes++;
        }
        // Cash and card by turns: each a payment row whose trigger moves the totals (issue 24).
        const paid = await call(box.base, "PUT", `/tickets/paidFor/${t}?method=${n % 2 ? "card" : "cash"}`, token);
        acked.paid.set(t, Math.round(paid.total_paid * 100));
        acked.writes++;
      } catch {
        return; // the box is gone or frozen: what it did not acknowledge may or may not be there
      }
    }
  };
  const running = Array.from({ length: workers }, (_, w) => client(w));
  return async () => {
    stop = true;
    await Promise.all(running);
  };
}

/**
 * Opens the database as the next start would find it and checks: integrity, every
 * acknowledged ticket, item and payment present, and every ticket priced as the engine
 * prices it (see ticketsOffPrice).
 */
export async function check(dbFile: string, acked: Acked): Promise<{ integrity: string; lost: number; totalsOff: number; ok: boolean }> {
  try {
    return await checkOrThrow(dbFile, acked);
  } catch (e) {
    // A database that cannot even be read (schema missing, not a database) lost everything.
    return { integrity: `unreadable (${(e as Error).message})`, lost: acked.writes, totalsOff: 0, ok: false };
  }
}

async function checkOrThrow(dbFile: string, acked: Acked) {
  const database = await openDatabase(`file:${dbFile}`);
  try {
    const integrity = String((await database.client.execute("PRAGMA integrity_check")).rows[0]![0]);
    const ids = async (table: string) =>
      new Set(((await database.client.execute(`SELECT id FROM ${table}`)).rows as unknown as { id: number }[]).map((r) => Number(r.id)));
    const tickets = await ids("tickets");
    const items = await ids("ticket_sub_categories");
    const paidNow = new Map(
      ((await database.client.execute("SELECT id, total_paid FROM tickets")).rows as unknown as { id: number; total_paid: number }[]).map((r) => [
        Number(r.id),
        Number(r.total_paid),
      ]),
    );
    const lost =
      [...acked.tickets].filter((t) => !tickets.has(t)).length +
      [...acked.items].filter((i) => !items.has(i)).length +
      [...acked.paid].filter(([t, cents]) => (paidNow.get(t) ?? 0) < cents).length;
    // Never a payment row without its totals, nor a total without its rows.
    const ledgerOff = (await checkPaymentSums(async (sql) => (await database.client.execute(sql)).rows.map((r) => Object.values(r)))).length;
    const totalsOff = (await ticketsOffPrice(database, [...acked.tickets])).length + ledgerOff;
    return { integrity, lost, totalsOff, ok: integrity === "ok" && lost === 0 && totalsOff === 0 };
  } finally {
    database.close();
  }
}

/**
 * The tickets (all of them when `ticketIds` is omitted) whose stored money is not what the
 * pricing engine computes: each is re-priced by the appliance's own recomputeTicket, in a
 * transaction that is rolled back (a check, not a repair), and is off if its total or any
 * item's total or pre-discount total changed. Used after a crash and on seeded data.
 */
export async function ticketsOffPrice(database: Database, ticketIds?: readonly number[]): Promise<number[]> {
  const off: number[] = [];
  await database.db
    .transaction(async (tx) => {
      const ids = ticketIds ?? ((await tx.all(sql`SELECT id FROM tickets ORDER BY id`)) as { id: number }[]).map((r) => r.id);
      const money = async (t: number) =>
        JSON.stringify([
          await tx.all(sql`SELECT total FROM tickets WHERE id = ${t}`),
          await tx.all(sql`SELECT id, total, pre_discount_total FROM ticket_sub_categories WHERE ticket_id = ${t} ORDER BY id`),
        ]);
      for (const t of ids) {
        const before = await money(t);
        await recomputeTicket(tx, t);
        if ((await money(t)) !== before) off.push(t);
      }
      throw new Error("rollback");
    })
    .catch((e) => {
      if ((e as Error).message !== "rollback") throw e;
    });
  return off;
}

/**
 * `--short`: a few runs of each fault, what `npm test` runs (scripts/faults/short.test.ts) so a
 * regression in crash safety shows there; the long runs the README's figures come from stay
 * the defaults.
 */
export const SHORT = process.argv.includes("--short");
/** A numeric option `--name n`; without it, the short mode's value under `--short`, else the default. */
export const arg = (name: string, d: number, short?: number) =>
  Number(process.argv[process.argv.indexOf(`--${name}`) + 1]) || (SHORT && short !== undefined ? short : d);
