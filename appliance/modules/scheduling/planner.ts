/**
 * The planners' weeks: the scheduler's week of stops per locality (spec §3 Schedule
 * statistics), the plant's load per action (Action workload) and the current week's figures
 * the ticket view shows (Weekly statistics).
 */
import type { Db } from "../../../db/client";
import { businessDay } from "../../domain/dates";
import { capacityLeft, dayOfWeek, loadColour, localityCapacities, monthOf, weekDates, weekOf } from "../../domain/schedule";
import type { Clock } from "../../platform/clock";
import type { EmployeeCaller } from "../auth/caller";
import { actionNames } from "../catalogue/reads";
import { localityNames } from "../places/reads";
import { LIST_CAP } from "./booked";
import type { ScheduleCounts } from "./counts";
import type { ScheduleLists } from "./lists";

export function createPlanner({ db, clock, counts, lists }: { db: Db; clock: Clock; counts: ScheduleCounts; lists: ScheduleLists }) {
  const today = () => businessDay(clock.now());
  const { settings, bookedStops, plantCapacity, plantLoad } = counts;
  const { dayTickets, dayItems } = lists;

  return {
    // -------------------------------------------------------- scheduler
    /** Spec §3 Schedule statistics per day for a week; tickets at most `limit` a day (only `date`'s when given). */
    async scheduleWeek(caller: EmployeeCaller, year: number, week: number, opts: { limit: number; date?: string; type?: "pickups" | "deliveries" }) {
      const days = weekDates(year, week);
      const [all, booked, names] = await Promise.all([settings(), bookedStops(days[0]!, days[6]!), localityNames(db)]);
      const nameOf = new Map(names.map((l) => [l.id, l.name]));
      return Promise.all(
        days.map(async (date) => {
          const caps = localityCapacities(all, date);
          const per = new Map<number, { p: number; d: number }>();
          const at = (l: number) => per.get(l) ?? (per.set(l, { p: 0, d: 0 }), per.get(l)!);
          for (const r of booked.pickups) if (r.date === date && r.locality != null) at(r.locality).p += Number(r.n);
          for (const r of booked.deliveries) if (r.date === date && r.locality != null) at(r.locality).d += Number(r.n);
          for (const l of caps.keys()) at(l);
          const locs = [...per.entries()]
            .map(([id, v]) => ({
              id,
              name: nameOf.get(id) ?? `#${id}`,
              capacity: caps.get(id) ?? 0,
              assigned_pickups: v.p,
              assigned_deliveries: v.d,
              colour: loadColour(v.p + v.d, caps.get(id) ?? 0),
            }))
            .sort((a, b) => a.name.localeCompare(b.name));
          const capacity = locs.reduce((s, l) => s + l.capacity, 0);
          const assigned_pickups = locs.reduce((s, l) => s + l.assigned_pickups, 0);
          const assigned_deliveries = locs.reduce((s, l) => s + l.assigned_deliveries, 0);
          const listed = !opts.date || opts.date === date ? await dayTickets(caller, date, opts.limit, opts.type) : { count: 0, tickets: [] };
          return {
            date,
            day_of_week: dayOfWeek(date),
            capacity,
            assigned_deliveries,
            assigned_pickups,
            colour: loadColour(assigned_pickups + assigned_deliveries, capacity),
            localities: locs,
            tickets: listed.tickets,
            ticket_count: listed.count,
          };
        }),
      );
    },

    // -------------------------------------------------------- plant workload
    /** Spec §3 Action workload for a week: each configured or loaded action's capacity and load per day. */
    async actionWorkload(caller: EmployeeCaller, year: number, week: number, limit: number) {
      const days = weekDates(year, week);
      const [cap, load] = await Promise.all([plantCapacity(days), plantLoad(days[0]!, days[6]!)]);
      const ids = [...new Set([...cap.rows.map((r) => r.action_id), ...load.actions])];
      const names = await actionNames(db, ids);
      const lists = limit ? await Promise.all(days.map((d) => dayItems(caller, d, Math.min(limit, LIST_CAP)))) : days.map(() => []);
      return names
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((a) => ({
          action_id: a.id,
          action: a.name,
          days: days.map((date, i) => {
            const capacity = cap.of(a.id, date) ?? 0;
            const assigned = load.of(a.id, date);
            return {
              date,
              day_of_week: i,
              capacity,
              assigned,
              colour: loadColour(assigned, capacity),
              ticket_sub_categories: lists[i]!.filter((it) => it.action_id === a.id).map(({ action_id, ...it }) => it),
            };
          }),
        }));
    },

    /** Spec §3 Weekly statistics for the current Malta week (the ticket view's Process Feedback); optionally only some actions. */
    async thisWeek(actionIds?: number[]) {
      const { year, week } = weekOf(today());
      const days = weekDates(year, week);
      const [cap, load] = await Promise.all([plantCapacity(days, actionIds), plantLoad(days[0]!, days[6]!, actionIds)]);
      const names = new Map(cap.rows.map((r) => [r.action_id, r.action]));
      if (actionIds?.length) {
        for (const a of await actionNames(db, actionIds)) names.set(a.id, a.name);
      }
      const out = [];
      for (const [action_id, action] of [...names].sort((a, b) => a[1].localeCompare(b[1]))) {
        for (const date of days) {
          const total_amount = cap.of(action_id, date) ?? 0;
          const amount_accepted = load.of(action_id, date);
          out.push({
            month: monthOf(date),
            action_id,
            action,
            date,
            day_of_week: dayOfWeek(date),
            amount_left: capacityLeft(total_amount, amount_accepted),
            amount_accepted,
            total_amount,
            colour: loadColour(amount_accepted, total_amount),
          });
        }
      }
      return out;
    },
  };
}
