/**
 * The accountant's journal (issue 34): made in a process of its own (child.ts) on a read-only
 * connection, streamed to the client as it comes; the account-code chart is read here and
 * travels with the job. HQ's staff set the chart and take the journal per shop or chain-wide;
 * a shop's admin takes their own shop's.
 */
import { fileURLToPath } from "node:url";
import type { Db } from "../../../db/client";
import { shopTimeZone } from "../../domain/dates";
import { printDate } from "../../domain/format";
import { spawnChild } from "../../platform/child";
import type { Clock } from "../../platform/clock";
import { notFound, tooMany } from "../../platform/errors";
import { audit } from "../audit/audit";
import type { EmployeeCaller } from "../auth/caller";
import { chartOf, readChart, writeChart } from "./accounts";
import { JOURNAL_EXIT, type JournalJob } from "./child";
import type { JournalFormat, JournalQuery } from "./model";

const CHILD = fileURLToPath(new URL("./child.ts", import.meta.url));

export type JournalFile = { kind: "empty" } | { kind: "file"; body: ReadableStream<Uint8Array>; filename: string; contentType: string };

const NAMES: Record<JournalFormat, string> = { xero: "Xero manual journal", quickbooks: "QuickBooks journal entries", csv: "Journal" };

export function createBooksService(deps: {
  db: Db;
  clock: Clock;
  target: { url: string; authToken?: string };
  /** HQ mode (issue 34): the sites' restored copies to read (all, or one: 404/409 as the chain reports); absent on a shop's box. */
  siteCopies?: (only?: string) => { url: string; site?: string }[];
}) {
  let running = 0;
  return {
    accounts: () => readChart(deps.db),

    async saveAccounts(caller: EmployeeCaller, rows: { key: string; code: string; name: string }[]) {
      await writeChart(deps.db, rows, deps.clock.now());
      await audit(deps.db, deps.clock.now(), caller, "set_account_codes", "account_codes", null, { keys: rows.map((r) => r.key) });
      return readChart(deps.db);
    },

    async journal(caller: EmployeeCaller, q: JournalQuery, signal?: AbortSignal): Promise<JournalFile> {
      // A shop's admin: their own shop only (another's answers 404, as every id of another shop).
      if (!caller.agent.is_hq && q.agent !== undefined && q.agent !== caller.agent.id) throw notFound("Shop");
      const agents = caller.agent.is_hq ? (q.agent === undefined ? null : [q.agent]) : [caller.agent.id];
      // Two cores: one journal at a time beside the counter.
      if (running >= 1) throw tooMany("A journal is being made; try again when it has finished");
      const format = q.format ?? "csv";
      // At HQ in HQ mode: HQ's own database and every site's copy, or one site's copy.
      if (q.site !== undefined && !(caller.agent.is_hq && deps.siteCopies)) throw notFound("Site");
      const copies = caller.agent.is_hq && deps.siteCopies ? deps.siteCopies(q.site) : [];
      const job: JournalJob = {
        dbs: q.site !== undefined ? copies : [deps.target, ...copies],
        from: q.from,
        to: q.to,
        agents,
        format,
        chart: chartOf(await readChart(deps.db)),
        timeZone: shopTimeZone(),
      };
      const child = spawnChild([process.execPath, CHILD], { input: JSON.stringify(job), nice: 10, stderrLimit: 500, signal, timeoutMs: 10 * 60_000 });
      running++;
      child.ended.finally(() => running--);
      const reader = child.stdout!.getReader();
      const head = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (head.done || !head.value) {
        const end = await child.ended;
        if (end.code === JOURNAL_EXIT.empty) return { kind: "empty" };
        throw new Error(`The journal failed: ${end.stderr || end.exit}`);
      }
      let first: Uint8Array | null = head.value;
      const body = new ReadableStream<Uint8Array>({
        async pull(ctrl) {
          const chunk = first ?? (await reader.read()).value;
          first = null;
          if (chunk) return ctrl.enqueue(chunk);
          const end = await child.ended;
          if (end.code === JOURNAL_EXIT.done) ctrl.close();
          else ctrl.error(new Error(`The journal failed: ${end.stderr || end.exit}`));
        },
        cancel: () => child.kill(),
      });
      const shop = `${q.site ? ` ${q.site}` : ""}${agents?.length === 1 ? ` shop ${agents[0]}` : ""}`;
      return { kind: "file", body, filename: `${NAMES[format]}${shop} ${printDate(q.from)} ${printDate(q.to)}.csv`, contentType: "text/csv; charset=utf-8" };
    },
  };
}
export type BooksService = ReturnType<typeof createBooksService>;
