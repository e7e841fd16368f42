// Moving in (issue 26): reads the old system through its GET routes and writes what is new
// or changed since the last run into this box, with the old ids. Each kind is read, checked
// (records.ts), checked for the records it points at (plan.ts), compared with the last run's
// fingerprint and written in batches, one transaction each; a batch that fails is written
// again record by record so one bad record is refused alone, with its reason.
import type { Client } from "@libsql/client";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { importRuns } from "../../../db/schema";
import { audit } from "../audit/audit";
import type { EmployeeCaller } from "../auth/caller";
import { connectSource, type Source } from "./client";
import { writeCustomersBulk, writeTicketsBulk } from "./bulk";
import { gapRanges, idBounds, idChunks, newestOf } from "./ids";
import { importPayments } from "./payments";
import { describeTotals } from "../money/check";
import { checkTotalsOffLoop } from "../money/totals";
import { dependencyOrder, type KindPlan, PLAN } from "./plan";
import { ownAgentPrivileges, ownEmployeePrivileges, type Skipped } from "./privileges";
import { createReader, type FailedRow, PARALLEL, parallel } from "./read";
import { firstProblem, fingerprint, type Ticket } from "./records";
import { stateKeeper } from "./states";
import type { ImportDeps, ImportOptions, ImportReport, KindCounts, Refusal } from "./types";
import { type Kind, knownHashes, type NewPin, type WriteContext, writeRecord } from "./writer";

export type { ImportDeps, ImportOptions, ImportReport, KindCounts, Progress, Refusal } from "./types";

const PAGE = 200;
/** The report keeps this many refusals in full; the rest are counted. */
const MAX_LISTED_REFUSALS = 2000;
/** Ids above the highest listed ticket answering 404 (or failing) in a row before the newest drafts are taken as all read. */
const GAP_TAIL = 24;
/** The tail probe asks for at most this many ids above the highest listed ticket, and for at most TAIL_MS. */
const TAIL_MAX_IDS = 2_000;
const TAIL_MS = 5 * 60_000;
/** Missing ids below the highest asked for one by one: at most the tickets listed plus this (the newest first). */
const GAP_EXTRA = 10_000;

type Parsed = { id: number; record: any; hash: string };

export async function runImport(deps: ImportDeps, o: ImportOptions): Promise<ImportReport> {
  const { db, clock } = deps;
  const started = clock.now();
  const t0 = performance.now();
  const dry = o.dryRun ?? false;
  const pageSize = o.pageSize ?? PAGE;
  const source = o.from.replace(/\/\/[^/@]*@/, "//");
  const kinds: Partial<Record<Kind, KindCounts>> = {};
  const refusals: Refusal[] = [];
  let notListed = 0;
  const pins: NewPin[] = [];
  const skipped: Skipped[] = [];
  const bounds = idBounds();
  /** Ticket ids refused for being past the id bound: never the "highest id" the gap probes start from. */
  const tooHigh = new Set<number>();
  const money = { tickets: 0, total_cents: 0, paid_cents: 0, equal_to_source: true, refused_for_money: 0 };

  const runId = dry
    ? null
    : (await db.insert(importRuns).values({ source, started_at: started.toISOString(), status: "running" }).returning({ id: importRuns.id }))[0]!.id;
  const ctx = (q: WriteContext["q"]): WriteContext => ({
    q,
    runId: runId ?? 0,
    secret: deps.secret,
    caller: deps.caller,
    pay: importPayments(clock, started),
    pins,
    skipped,
  });

  const refuse = (kind: Kind, id: number | null, reason: string) => {
    kinds[kind]!.refused++;
    if (reason.startsWith("money check")) money.refused_for_money++;
    if (refusals.length < MAX_LISTED_REFUSALS) refusals.push({ kind, id, reason });
    else notListed++;
  };

  // What exists (on this box, or accepted in this run): references are checked against it.
  const known = new Map<Kind, Set<number>>();
  const states = await stateKeeper(db, dry);
  async function loadKnown(p: KindPlan) {
    const rows = await db.select({ id: p.table.id }).from(p.table as any);
    known.set(p.kind, new Set(rows.map((r: { id: number }) => r.id)));
    bounds.start(p.kind, rows.length);
    if (p.kind === "ticket") {
      kinds.ticket_state = states.counts;
      const n = async (t: string) => (await db.all<{ n: number }>(sql.raw(`SELECT count(*) AS n FROM ${t}`)))[0]!.n;
      bounds.start("item", await n("ticket_sub_categories"));
      bounds.start("item_action", await n("ticket_sub_category_actions"));
      bounds.start("item_modifier", await n("ticket_sub_category_modifiers"));
      bounds.start("item_log", await n("item_log_states"));
      bounds.start("ticket_log", await n("ticket_log_states"));
    }
  }

  /** Checks, fingerprints and sorts out one kind's raw records; returns those to write. */
  async function sift(p: KindPlan, raws: unknown[]): Promise<Parsed[]> {
    const counts = kinds[p.kind]!;
    const ok: Parsed[] = [];
    for (const raw of raws) {
      counts.read++;
      const rawId = typeof (raw as { id?: unknown })?.id === "number" ? (raw as { id: number }).id : null;
      const r = p.schema.safeParse(raw);
      if (!r.success) {
        refuse(p.kind, rawId, firstProblem(r.error));
        continue;
      }
      const past = bounds.check(p.kind, r.data);
      if (past) {
        if (p.kind === "ticket") tooHigh.add(r.data.id);
        refuse(p.kind, r.data.id, past);
        continue;
      }
      ok.push({ id: r.data.id, record: r.data, hash: fingerprint(r.data) });
    }
    const ordered = p.kind === "action" || p.kind === "price" ? dependencyOrder(ok, (x) => x.record.is_percentage_of) : ok;
    const before = dry
      ? new Map<number, string>()
      : await knownHashes(
          db,
          p.kind,
          ordered.map((x) => x.id),
        );
    const out: Parsed[] = [];
    // Records of this answer that passed, for references within one kind (percentage prices).
    const passed = new Set<number>();
    for (const x of ordered) {
      const missing = p.refs(x.record).find(([k, id]) => id != null && !known.get(k)?.has(id) && !(k === p.kind && passed.has(id)));
      if (missing) {
        refuse(p.kind, x.id, `${missing[2]} ${missing[1]} is not in the old system's answer nor on this box`);
        continue;
      }
      if (p.kind === "ticket") {
        const bad = await states.take(x.record as Ticket);
        if (bad) {
          refuse(p.kind, x.id, bad);
          continue;
        }
      }
      passed.add(x.id);
      const prev = before.get(x.id);
      if (prev === x.hash) {
        counts.unchanged++;
        known.get(p.kind)!.add(x.id);
        continue;
      }
      out.push(x);
      if (dry) {
        prev === undefined && !known.get(p.kind)!.has(x.id) ? counts.new++ : counts.changed++;
        accept(p, x);
        // What the writer would not take, said by a dry run too.
        if (p.kind === "agent") skipped.push(...(await ownAgentPrivileges(db, x.record)).skipped);
        if (p.kind === "employee") skipped.push(...(await ownEmployeePrivileges(db, x.record)).skipped);
      }
    }
    return dry ? [] : out;
  }

  function accept(p: KindPlan, x: Parsed) {
    known.get(p.kind)!.add(x.id);
    if (p.kind === "ticket") {
      const t = x.record as Ticket;
      money.tickets++;
      money.total_cents += t.total;
      money.paid_cents += t.total_paid;
    }
  }

  /** Writes a batch, then lets the caller checkpoint (a 50k-ticket import otherwise left a 632 MB WAL). */
  async function write(p: KindPlan, page: Parsed[]) {
    await writeBatch(p, page);
    if (page.length) await o.afterWrite?.();
  }

  /** Writes records in one transaction; when it fails, one by one, refusing the bad ones. */
  async function writeBatch(p: KindPlan, page: Parsed[]) {
    let batch = page;
    if (!batch.length) return;
    const counts = kinds[p.kind]!;
    const isNew = (x: Parsed) => !known.get(p.kind)!.has(x.id);
    const tally = (x: Parsed) => {
      isNew(x) ? counts.new++ : counts.changed++;
      accept(p, x);
    };
    // Tickets new to this box (nearly all of a first run) go in a page at a time; the rest,
    // and any page that fails, record by record below.
    if (p.kind === "ticket" && o.pageAtATime !== false) {
      const rest = await writeTicketsBulk(db, { runId: runId ?? 0, caller: deps.caller, now: started }, batch);
      const left = new Set(rest);
      for (const x of batch) if (!left.has(x)) tally(x);
      batch = rest;
      if (!batch.length) return;
    }
    if (p.kind === "customer") {
      batch = await writeCustomersBulk(db, { runId: runId ?? 0 }, batch);
      if (!batch.length) return void page.forEach(tally);
    }
    const pinsBefore = pins.length;
    const skippedBefore = skipped.length;
    try {
      await db.transaction(async (tx) => {
        for (const x of batch) await writeRecord(ctx(tx), p.kind, x.record, x.hash);
      });
      for (const x of batch) tally(x);
      return;
    } catch {
      pins.length = pinsBefore; // the batch's PINs were rolled back with it
      skipped.length = skippedBefore;
    }
    for (const x of batch) {
      const mark = pins.length;
      const skipMark = skipped.length;
      try {
        await db.transaction(async (tx) => writeRecord(ctx(tx), p.kind, x.record, x.hash));
        tally(x);
      } catch (e) {
        pins.length = mark;
        skipped.length = skipMark;
        refuse(p.kind, x.id, (e as Error).message.replace(/\s+/g, " ").slice(0, 300));
      }
    }
  }

  let src: Source;
  try {
    src = await connectSource(o);
  } catch (e) {
    if (runId)
      await db
        .update(importRuns)
        .set({ status: "failed", finished_at: clock.now().toISOString(), report: JSON.stringify({ error: (e as Error).message }) })
        .where(eq(importRuns.id, runId));
    throw e;
  }

  const { pages, complete, addressesPastTheCap, ticket: fetchOne } = createReader(src, { pageSize, refuse });

  const progress = (p: KindPlan, done: number, total: number) =>
    o.onProgress?.({ kind: p.kind, label: p.label, done, total, step: PLAN.indexOf(p), steps: PLAN.length });

  const failedCompletions = (p: KindPlan, rows: unknown[]) =>
    rows.filter((r) => {
      const f = r as Partial<FailedRow>;
      if (!f.__failed) return true;
      kinds[p.kind]!.read++;
      refuse(p.kind, f.id ?? null, f.reason ?? "");
      return false;
    });

  async function importKind(p: KindPlan) {
    kinds[p.kind] = { read: 0, new: 0, changed: 0, unchanged: 0, refused: 0 };
    await loadKnown(p);
    if ("paged" in p.read) {
      let total = 0;
      const seen = new Set<number>();
      for await (const raw of pages(p, p.read.paged)) {
        if (o.signal?.aborted) throw new Error("import stopped");
        const first = (raw[0] as { id?: unknown })?.id;
        if (!total && typeof first === "number") total = first; // newest first: the highest id ≈ how many
        for (const r of raw) if (typeof (r as { id?: unknown })?.id === "number") seen.add((r as { id: number }).id);
        await write(p, await sift(p, failedCompletions(p, await complete(p, raw))));
        progress(p, seen.size, Math.max(total, seen.size));
      }
      if (p.kind === "ticket") await probeGaps(p, seen);
      progress(p, kinds[p.kind]!.read, kinds[p.kind]!.read);
      return;
    }
    let raws: unknown[] = [];
    try {
      if ("perLocality" in p.read) {
        const locs = [...(known.get("locality") ?? [])];
        const lists = await parallel(locs, (l) =>
          src.list(`/streets/locality/${l}`).catch((e: Error) => (refuse(p.kind, null, `streets of locality ${l}: ${e.message}`), [])),
        );
        raws = lists.flat();
      } else raws = await src.list(p.read.path);
      if (p.kind === "address") raws.push(...(await addressesPastTheCap(raws)));
    } catch (e) {
      refuse(p.kind, null, `${p.read && "path" in p.read ? p.read.path : p.label}: ${(e as Error).message}`);
    }
    progress(p, 0, raws.length);
    const out = await sift(p, raws);
    for (let i = 0; i < out.length; i += pageSize) {
      if (o.signal?.aborted) throw new Error("import stopped");
      await write(p, out.slice(i, i + pageSize));
    }
    progress(p, raws.length, raws.length);
  }

  /**
   * The ticket list leaves out CREATED tickets (not yet confirmed, labels maybe printed) and a
   * ticket can move in the list while it is read: every id below the highest seen that was
   * not seen is asked for alone (404: deleted at the source), then ids above it until
   * GAP_TAIL in a row answer 404 or fail (the newest drafts). The missing ids are kept as
   * ranges; at most the tickets seen plus GAP_EXTRA of them are asked for (the newest), and
   * the tail stops after TAIL_MAX_IDS ids or TAIL_MS whatever the source answers: a source
   * that answers 500 for a missing id, or a ticket for every id, cannot keep it going.
   */
  async function probeGaps(p: KindPlan, seen: Set<number>) {
    let max = 0; // not Math.max(...seen): half a million arguments overflow the stack
    for (const id of seen) if (id > max && !tooHigh.has(id)) max = id;
    const { ranges, left } = newestOf(gapRanges(seen, max), seen.size + GAP_EXTRA);
    if (left) refuse(p.kind, null, `${left} missing ticket ids below ${ranges[0]?.[0] ?? max} were not asked for one by one (more gaps than tickets)`);
    const writeFound = async (found: unknown[]) =>
      write(
        p,
        await sift(
          p,
          failedCompletions(
            p,
            found.filter((x) => x !== null),
          ),
        ),
      );
    for (const ids of idChunks(ranges, pageSize)) {
      if (o.signal?.aborted) throw new Error("import stopped");
      await writeFound(await parallel(ids, fetchOne));
    }
    let misses = 0;
    let failed = 0;
    const until = performance.now() + TAIL_MS;
    for (let id = max + 1; misses < GAP_TAIL && id <= max + TAIL_MAX_IDS && performance.now() < until; id += PARALLEL) {
      if (o.signal?.aborted) throw new Error("import stopped");
      const found = await parallel(
        Array.from({ length: PARALLEL }, (_, k) => id + k),
        fetchOne,
      );
      // An error past the highest ticket is a miss, as a 404 is: it never resets the count.
      for (const f of found) {
        const error = (f as Partial<FailedRow> | null)?.__failed === true;
        if (error) failed++;
        misses = f === null || error ? misses + 1 : 0;
      }
      await writeFound(found.filter((f) => !(f as Partial<FailedRow> | null)?.__failed));
    }
    if (failed) refuse(p.kind, null, `${failed} ticket ids above ${max} answered an error, not 404: taken as missing`);
  }

  let status = dry ? "dry-run" : "done";
  let error: string | undefined;
  try {
    for (const p of PLAN) await importKind(p);
    if (money.refused_for_money) money.equal_to_source = false;
  } catch (e) {
    status = "failed";
    error = (e as Error).message;
  } finally {
    await src.logout();
  }
  // The ledger's invariant over the whole box, after every run (what a failed run wrote stays,
  // so it too): the rows' triggers keep it per ticket; this proves it for everything.
  const totals = dry ? null : await checkImportedTotals();

  const report: ImportReport = {
    run_id: runId,
    source,
    dry_run: dry,
    started_at: started.toISOString(),
    finished_at: clock.now().toISOString(),
    seconds: Math.round((performance.now() - t0) / 100) / 10,
    requests: src.requests,
    kinds,
    refusals,
    refusals_not_listed: notListed,
    skipped,
    money,
    totals,
    pins,
  };
  await finish(status, { error });
  if (error) throw Object.assign(new Error(error), { report });
  return report;

  async function checkImportedTotals(): Promise<ImportReport["totals"]> {
    try {
      const c = await checkTotalsOffLoop({
        file: deps.databaseFile ?? null,
        values: async (q) => (await (db as Db & { $client: Client }).$client.execute(q)).rows.map((r) => Object.values(r)),
      });
      return { ok: c.ok, count: c.count, message: describeTotals(c) };
    } catch (e) {
      return { ok: false, count: 0, message: `The totals check could not run: ${(e as Error).message.slice(0, 300)}` };
    }
  }

  async function finish(s: string, extra: { error?: string }) {
    if (!runId) return;
    const stored = { ...report, pins: pins.map(({ pin: _, ...rest }) => rest), ...extra };
    await db
      .update(importRuns)
      .set({ status: s, finished_at: clock.now().toISOString(), report: JSON.stringify(stored) })
      .where(eq(importRuns.id, runId));
    if (s !== "failed") await audit(db, clock.now(), deps.caller, "import", "import_run", runId, { source, kinds });
  }
}

/** The admin the import acts as on this box: the first enabled HQ admin. */
export async function importCaller(db: Db): Promise<EmployeeCaller> {
  const rows = await db.all<{ id: number; full_name: string; agent_id: number; agent_name: string; is_hq: number; hq: number }>(
    sql`SELECT e.id, e.full_name, e.agent_id, a.name AS agent_name, a.is_hq, e.hq FROM employees e JOIN agents a ON a.id = e.agent_id
        WHERE e.role = 'admin' AND (a.is_hq = 1 OR e.hq = 1) ORDER BY a.is_hq DESC, e.id LIMIT 1`,
  );
  const e = rows[0];
  if (!e) throw new Error("this box has no HQ admin yet: finish the first-run setup first");
  return {
    kind: "employee",
    jti: "import",
    agent: { id: e.agent_id, name: e.agent_name, is_hq: Boolean(e.is_hq) },
    employee: { id: e.id, full_name: e.full_name, role: "admin", hq: Boolean(e.hq) },
  };
}
