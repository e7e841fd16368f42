// What other modules may read of messaging's tables (issue 23: a module's tables are its own).
import { and, eq, gte, inArray, isNotNull, lte } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { messageBatches, messageTemplates, outgoingMessages, reminders } from "../../../db/schema";

/** Whether this employee sent a message, started a bulk send or edited a template: employees keeps their record then (issue 22). */
export async function namesEmployee(db: Pick<Db, "select">, employeeId: number): Promise<boolean> {
  const checks = [
    () => db.select({ one: outgoingMessages.employee_id }).from(outgoingMessages).where(eq(outgoingMessages.employee_id, employeeId)).limit(1),
    () => db.select({ one: messageBatches.employee_id }).from(messageBatches).where(eq(messageBatches.employee_id, employeeId)).limit(1),
    () => db.select({ one: messageTemplates.updated_by }).from(messageTemplates).where(eq(messageTemplates.updated_by, employeeId)).limit(1),
  ];
  for (const check of checks) if ((await check()).length) return true;
  return false;
}

/**
 * What customers answered to these tickets' pickup reminders for this day (issue 35): "yes"
 * confirms the stop, "skip" takes it off the driver's run. Tickets without an answer are absent.
 */
export async function pickupAnswers(db: Pick<Db, "select">, ticketIds: number[], day: string): Promise<Map<number, "yes" | "skip" | "stop">> {
  if (!ticketIds.length) return new Map();
  const rows = await db
    .select({ ticket_id: reminders.ticket_id, answer: reminders.answer })
    .from(reminders)
    .where(and(inArray(reminders.ticket_id, ticketIds), eq(reminders.pickup_date, day), isNotNull(reminders.answer)));
  return new Map(rows.map((r) => [r.ticket_id, r.answer!]));
}

/**
 * The pickups customers skipped by SMS over [from, to] (issue 35): the driver's run drops them,
 * so scheduling's counts do too (a skipped stop frees its room). `ticket_id|pickup_date` keys:
 * a skip is for that day only, so a ticket moved to another day counts again there.
 */
export async function skippedPickups(db: Pick<Db, "select">, from: string, to: string): Promise<string[]> {
  const rows = await db
    .select({ ticket_id: reminders.ticket_id, day: reminders.pickup_date })
    .from(reminders)
    .where(and(eq(reminders.answer, "skip"), gte(reminders.pickup_date, from), lte(reminders.pickup_date, to)));
  return rows.map((r) => `${r.ticket_id}|${r.day}`);
}
