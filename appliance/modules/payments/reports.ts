/**
 * The payments module's two reports (issue 24), run by the report worker like the others:
 * every payment and refund row of a period, and the drawer closes. Keyset pages by id, so
 * memory stays flat whatever the range. Raw cells by column type (money in cents).
 */
import { addDays, BUSINESS_TZ } from "../../domain/dates";
import { dayStartUtc } from "../../domain/schedule";
import type { Cell } from "../reports/cells";
import type { ReportQuery } from "../reports/model";
import type { Producer, Scope, Source } from "../reports/queries";

const PAGE = 4000;
const num = (v: unknown) => Number(v ?? 0);
const str = (v: unknown) => (v == null ? "" : String(v));
const hhmm = new Intl.DateTimeFormat("en-GB", { timeZone: BUSINESS_TZ, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
const maltaDay = new Intl.DateTimeFormat("en-CA", { timeZone: BUSINESS_TZ, year: "numeric", month: "2-digit", day: "2-digit" });

async function names(src: Source, sql: string) {
  return new Map((await src.values(sql, [])).map((r) => [num(r[0]), str(r[1])]));
}

/** Date, Time, [Shop], Ticket, Item, Tender, Amount, Tendered, Change, Employee, Refund of, Reason. */
export async function* paymentsReport(src: Source, q: ReportQuery & { methods?: string[] }, scope: Scope): Producer {
  const shops = await names(src, "SELECT id, name FROM agents");
  const employees = await names(src, "SELECT id, full_name FROM employees");
  const where = [
    scope.agents ? "AND agent_id IN (SELECT value FROM json_each(?))" : "",
    q.methods?.length ? "AND tender IN (SELECT value FROM json_each(?))" : "",
  ].join(" ");
  const args = [...(scope.agents ? [JSON.stringify(scope.agents)] : []), ...(q.methods?.length ? [JSON.stringify(q.methods)] : [])];
  const [start, end] = [dayStartUtc(q.from), dayStartUtc(addDays(q.to, 1))];
  let last = 0;
  for (;;) {
    const rows = await src.values(
      `SELECT id, taken_at, agent_id, ticket_id, ticket_sub_category_id, tender, amount, tendered, change_given, employee_id, refund_of, reason
       FROM payments WHERE taken_at >= ? AND taken_at < ? AND id > ? ${where} ORDER BY id LIMIT ${PAGE}`,
      [start, end, last, ...args],
    );
    if (!rows.length) return;
    yield rows.map((r): Cell[] => {
      const at = new Date(str(r[1]));
      return [
        maltaDay.format(at),
        hhmm.format(at),
        ...(scope.hq ? [shops.get(num(r[2])) ?? ""] : []),
        num(r[3]),
        r[4] == null ? null : num(r[4]),
        str(r[5]),
        num(r[6]),
        r[7] == null ? null : num(r[7]),
        r[8] == null ? null : num(r[8]),
        r[9] == null ? "" : (employees.get(num(r[9])) ?? ""),
        r[10] == null ? null : num(r[10]),
        str(r[11]),
      ];
    });
    last = num(rows[rows.length - 1]![0]);
    if (rows.length < PAGE) return;
  }
}

/** Per close: Day, [Shop], expected, counted and variance per tender, closed at/by, note, reopened at. */
export async function* tillReport(src: Source, q: ReportQuery, scope: Scope): Producer {
  const shops = await names(src, "SELECT id, name FROM agents");
  const employees = await names(src, "SELECT id, full_name FROM employees");
  const rows = await src.values(
    `SELECT day, agent_id, expected_cash, counted_cash, expected_card, counted_card, expected_other, counted_other, closed_at, employee_id, note, reopened_at
     FROM till_closes WHERE day >= ? AND day <= ? ${scope.agents ? "AND agent_id IN (SELECT value FROM json_each(?))" : ""} ORDER BY day, agent_id, id`,
    [q.from, q.to, ...(scope.agents ? [JSON.stringify(scope.agents)] : [])],
  );
  if (!rows.length) return;
  yield rows.map((r): Cell[] => [
    str(r[0]),
    ...(scope.hq ? [shops.get(num(r[1])) ?? ""] : []),
    ...[2, 4, 6].flatMap((k) => [num(r[k]), num(r[k + 1]), num(r[k + 1]) - num(r[k])]),
    str(r[8]),
    r[9] == null ? "" : (employees.get(num(r[9])) ?? ""),
    str(r[10]),
    r[11] == null ? null : str(r[11]),
  ]);
}
