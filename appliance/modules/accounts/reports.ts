/**
 * The statement and the aged report (issue 34), made off the request thread: in a process of
 * its own (child.ts, nice 10) on a read-only connection, as the reports and the journal are.
 * The box checks the account is the caller's first (a cheap key read: a 404 answers at once),
 * then streams the CSV as the process writes it, or answers its JSON.
 */
import { fileURLToPath } from "node:url";
import type { Db } from "../../../db/client";
import { shopTimeZone } from "../../domain/dates";
import { spawnChild } from "../../platform/child";
import type { Clock } from "../../platform/clock";
import { tooMany } from "../../platform/errors";
import type { EmployeeCaller } from "../auth/caller";
import type { AccountReportJob } from "./child";
import type { Aged, Statement } from "./model";
import { accountRow } from "./service";

const CHILD = fileURLToPath(new URL("./child.ts", import.meta.url));
/** Two cores beside the counter: a few at once (a screen opens a statement and the aged report together), the rest asked to retry. */
const AT_ONCE = 4;
const TIMEOUT_MS = 5 * 60_000;

type Ask = { kind: "statement"; account_id: number; from: string; to: string } | { kind: "aged" };

export function createAccountReports(deps: { db: Db; clock: Clock; target: { url: string; authToken?: string } }) {
  let running = 0;

  function start(caller: EmployeeCaller, ask: Ask, format: "json" | "csv", signal?: AbortSignal) {
    if (running >= AT_ONCE) throw tooMany("Statements are being made; try again in a moment");
    const job: AccountReportJob = { ...deps.target, caller, now: deps.clock.now().toISOString(), timeZone: shopTimeZone(), format, ...ask };
    const child = spawnChild([process.execPath, CHILD], { input: JSON.stringify(job), nice: 10, stderrLimit: 500, signal, timeoutMs: TIMEOUT_MS });
    running++;
    child.ended.finally(() => running--);
    return child;
  }

  async function json<T>(caller: EmployeeCaller, ask: Ask): Promise<T> {
    const child = start(caller, ask, "json");
    const [text, end] = await Promise.all([new Response(child.stdout!).text(), child.ended]);
    if (end.exit !== "ok") throw new Error(`The ${ask.kind} failed: ${end.stderr || end.exit}`);
    return JSON.parse(text) as T;
  }

  /** The CSV as the process writes it; a process that fails midway errors the stream (the client sees a broken download, never a short file that looks whole). */
  function csv(caller: EmployeeCaller, ask: Ask, signal?: AbortSignal): ReadableStream<Uint8Array> {
    const child = start(caller, ask, "csv", signal);
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

  return {
    async statement(caller: EmployeeCaller, accountId: number, from: string, to: string): Promise<Statement> {
      await accountRow(deps.db, caller, accountId);
      return json<Statement>(caller, { kind: "statement", account_id: accountId, from, to });
    },
    /** The statement's CSV and the account's name (for the file's name). */
    async statementCsv(caller: EmployeeCaller, accountId: number, from: string, to: string, signal?: AbortSignal) {
      const a = await accountRow(deps.db, caller, accountId);
      return { name: a.name, body: csv(caller, { kind: "statement", account_id: accountId, from, to }, signal) };
    },
    aged: (caller: EmployeeCaller) => json<Aged>(caller, { kind: "aged" }),
    agedCsv: (caller: EmployeeCaller, signal?: AbortSignal) => csv(caller, { kind: "aged" }, signal),
  };
}
export type AccountReports = ReturnType<typeof createAccountReports>;
