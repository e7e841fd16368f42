/**
 * The money module's two reports (issue 24), run by the report worker like the others:
 * every payment and refund row of a period, and the drawer closes. Keyset pages by id, so
 * memory stays flat whatever the range. Raw cells by column type (money in cents).
 */
import { addDays, zoned } from "../../domain/dates";
import type { Cell, Producer, ReportRange, Scope, Source } from "../../domain/reportRows";
import { DRAWER_SQL, IN_DRAWER_SQL } from "./takings";

const PAGE = 4000;
const num = (v: unknown) => Number(v ?? 0);
const str = (v: unknown) => (v == null ? "" : String(v));
// Read at each row, not at load: the shop's zone is a setting of "The box" (issue 31).
const hhmm = () => zoned("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
const shopDay = () => zoned("en-CA", { year: "numeric", month: "2-digit", day: "2-digit" });

async function names(src: Source, sql: string) {
  return new Map((await src.values(sql, [])).map((r) => [num(r[0]), str(r[1])]));
}

/**
 * Date, Time, Till day, [Shop], Ticket, Item, Tender, Amount, Tendered, Change, Employee,
 * Refund of, Reason. The rows are those of the range's till days in the drawers of the caller's
 * shops, as takings count them (takings.ts): its amounts add up to the drawers' and the home
 * statistics' figures. Date and Time say when the money was taken; a payment after a day's
 * close shows its own date beside the next open till day it counts in. Shop is the drawer's.
 * Rows the import brought count in no drawer, so they are not here either (GET /payments of a
 * ticket lists them, marked imported; docs/decisions/imported-payments.md).
 */
export async function* paymentsReport(src: Source, q: ReportRange & { methods?: string[] }, scope: Scope): Producer {
  const shops = await names(src, "SELECT id, name FROM agents");
  const employees = await names(src, "SELECT id, full_name FROM employees");
  const where = [
    q.methods?.length ? "AND p.tender IN (SELECT value FROM json_each(?))" : "",
    scope.agents ? `AND ${DRAWER_SQL} IN (SELECT value FROM json_each(?))` : "",
  ].join(" ");
  const args = [...(q.methods?.length ? [JSON.stringify(q.methods)] : []), ...(scope.agents ? [JSON.stringify(scope.agents)] : [])];
  // Day by day (the (agent_id, till_day) index), keyset pages by id within a day.
  for (let day = q.from; day <= q.to; day = addDays(day, 1)) {
    let last = 0;
    for (;;) {
      const rows = await src.values(
        `SELECT p.id, p.taken_at, ${DRAWER_SQL}, p.ticket_id, p.ticket_sub_category_id, p.tender, p.amount, p.tendered, p.change_given, p.employee_id, p.refund_of, p.reason, p.till_day
         FROM payments p WHERE p.agent_id IN (SELECT id FROM agents) AND p.till_day = ? AND ${IN_DRAWER_SQL} AND p.id > ? ${where} ORDER BY p.id LIMIT ${PAGE}`,
        [day, last, ...args],
      );
      if (!rows.length) break;
      yield rows.map((r): Cell[] => {
        const at = new Date(str(r[1]));
        return [
          shopDay().format(at),
          hhmm().format(at),
          str(r[12]),
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
      if (rows.length < PAGE) break;
    }
  }
}

/** Per close: Day, [Shop], expected, counted and variance per tender, closed at/by, note, reopened at. */
export async function* tillReport(src: Source, q: ReportRange, scope: Scope): Producer {
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
