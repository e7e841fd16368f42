/**
 * The statement and the aged report (issue 34), made off the request thread: in a process of
 * its own (child.ts, nice 10) on a read-only connection, as the reports and the journal are.
 * The box checks the account is the caller's first (a cheap key read: a 404 answers at once),
 * then streams the CSV as the process writes it, or answers its JSON. At HQ in HQ mode the aged
 * report reads HQ's own database and every site's restored copy (as the journal does), `?site=`
 * one copy; an account's statement `?site=` reads the account in that copy.
 */
import { fileURLToPath } from "node:url";
import type { Db } from "../../../db/client";
import { withReadOnly } from "../../../db/readOnly";
import { shopTimeZone } from "../../domain/dates";
import { spawnChild } from "../../platform/child";
import type { Clock } from "../../platform/clock";
import { notFound, tooMany } from "../../platform/errors";
import type { EmployeeCaller } from "../auth/caller";
import type { AccountReportJob } from "./child";
import type { Aged, Statement } from "./model";
import { accountRow } from "./service";

const CHILD = fileURLToPath(new URL("./child.ts", import.meta.url));
/** Two cores beside the counter: a few at once (a screen opens a statement and the aged report together), the rest asked to retry. */
const AT_ONCE = 4;
const TIMEOUT_MS = 5 * 60_000;

type Ask = { kind: "statement"; account_id: number; from: string; to: string } | { kind: "aged" };
type Target = { url: string; authToken?: string; site?: string };

export function createAccountReports(deps: {
  db: Db;
  clock: Clock;
  target: { url: string; authToken?: string };
  /** HQ mode: the sites' restored copies (all, or one: 404/409 as the chain reports and the journal); absent on a shop's box. */
  siteCopies?: (only?: string) => Target[];
}) {
  let running = 0;

  /** `?site=` is HQ's, in HQ mode; anywhere else that site is not found. */
  function copies(caller: EmployeeCaller, site: string | undefined): Target[] {
    if (site !== undefined && !(caller.agent.is_hq && deps.siteCopies)) throw notFound("Site");
    return caller.agent.is_hq && deps.siteCopies ? deps.siteCopies(site) : [];
  }

  /**
   * The database an account lives in, checked as the box checks its own (the caller's shop's,
   * HQ any): one key read, so an unknown account answers 404 without a process. A site's copy
   * is opened for that read only (it is replaced at each restore).
   */
  async function accountIn(caller: EmployeeCaller, accountId: number, site: string | undefined) {
    if (site === undefined) return { target: deps.target as Target, account: await accountRow(deps.db, caller, accountId) };
    const target = copies(caller, site)[0]!;
    return { target, account: await withReadOnly(target.url, (copy) => accountRow(copy, caller, accountId)) };
  }

  function start(caller: EmployeeCaller, dbs: Target[], ask: Ask, format: "json" | "csv", signal?: AbortSignal) {
    if (running >= AT_ONCE) throw tooMany("Statements are being made; try again in a moment");
    const job: AccountReportJob = { dbs, caller, now: deps.clock.now().toISOString(), timeZone: shopTimeZone(), format, ...ask };
    const child = spawnChild([process.execPath, CHILD], { input: JSON.stringify(job), nice: 10, stderrLimit: 500, signal, timeoutMs: TIMEOUT_MS });
    running++;
    child.ended.finally(() => running--);
    return child;
  }

  async function json<T>(caller: EmployeeCaller, dbs: Target[], ask: Ask): Promise<T> {
    const child = start(caller, dbs, ask, "json");
    const [text, end] = await Promise.all([new Response(child.stdout!).text(), child.ended]);
    if (end.exit !== "ok") throw new Error(`The ${ask.kind} failed: ${end.stderr || end.exit}`);
    return JSON.parse(text) as T;
  }

  /** The CSV as the process writes it; a process that fails midway errors the stream (the client sees a broken download, never a short file that looks whole). */
  function csv(caller: EmployeeCaller, dbs: Target[], ask: Ask, signal?: AbortSignal): ReadableStream<Uint8Array> {
    const child = start(caller, dbs, ask, "csv", signal);
    const reader = child.stdout!.getReader();
    return new ReadableStream<Uint8Array>({
      async pull(ctrl) {
        const r = await reader.read();
        if (!r.done) return ctrl.enqueue(r.value);
        const end = await child.ended;
        if (end.exit === "ok") ctrl.close();
        else ctrl.error(new Error(`The ${ask.kind} failed: ${end.stderr || end.exit}`));
      },
      cancel: () => child.kill(),
    });
  }

  /** The aged report's databases: the box's own and, at HQ in HQ mode, every site's copy; `site`: that copy alone. */
  const agedDbs = (caller: EmployeeCaller, site?: string): Target[] => {
    const sites = copies(caller, site);
    return site !== undefined ? sites : [deps.target, ...sites];
  };

  return {
    async statement(caller: EmployeeCaller, accountId: number, from: string, to: string, site?: string): Promise<Statement> {
      const { target } = await accountIn(caller, accountId, site);
      return json<Statement>(caller, [target], { kind: "statement", account_id: accountId, from, to });
    },
    /** The statement's CSV and the account's name (for the file's name). */
    async statementCsv(caller: EmployeeCaller, accountId: number, from: string, to: string, signal?: AbortSignal, site?: string) {
      const { target, account } = await accountIn(caller, accountId, site);
      return { name: account.name, body: csv(caller, [target], { kind: "statement", account_id: accountId, from, to }, signal) };
    },
    aged: (caller: EmployeeCaller, site?: string) => json<Aged>(caller, agedDbs(caller, site), { kind: "aged" }),
    agedCsv: (caller: EmployeeCaller, signal?: AbortSignal, site?: string) => csv(caller, agedDbs(caller, site), { kind: "aged" }, signal),
  };
}
export type AccountReports = ReturnType<typeof createAccountReports>;
