/** The counter's date proposal: a locality's room per day and the first day that fits. */
import type { Db } from "../../../db/client";
import { addDays, businessDay } from "../../domain/dates";
import { type DayRoom, capacityLeft, dayFits, dayOfWeek, loadColour, localityCapacities, proposeDate } from "../../domain/schedule";
import type { Clock } from "../../platform/clock";
import { notFound } from "../../platform/errors";
import { unknownLocalityIds } from "../places/reads";
import type { ScheduleCounts } from "./counts";

/** The date proposal looks this many days past the default date at most. */
const PROPOSAL_HORIZON = 366;
const PROPOSAL_CHUNK = 31;

export function createAvailability({ db, clock, counts }: { db: Db; clock: Clock; counts: ScheduleCounts }) {
  const today = () => businessDay(clock.now());
  const { settings, bookedStops, plantCapacity, plantLoad } = counts;

  return {
    // -------------------------------------------------------- counter
    /**
     * A locality's room per day from `from` for `days` days, and the proposal: the first day
     * at or after `defaultDate` with a stop left and plant capacity for each action, looked
     * for up to a year ahead, a month at a time.
     */
    async availability(q: { locality: number; from?: string; days: number; default_date?: string; actions?: number[] }) {
      if ((await unknownLocalityIds(db, [q.locality])).length) throw notFound("Locality");
      const all = await settings();
      const actionIds = q.actions ?? [];
      const roomFor = async (first: string, n: number) => {
        const days = Array.from({ length: n }, (_, i) => addDays(first, i));
        const last = days[n - 1]!;
        const [booked, cap, load] = await Promise.all([
          bookedStops(first, last, q.locality),
          actionIds.length ? plantCapacity(days, actionIds) : null,
          actionIds.length ? plantLoad(first, last, actionIds) : null,
        ]);
        return days.map((date) => {
          const capacity = localityCapacities(all, date).get(q.locality) ?? 0;
          const assigned = [...booked.pickups, ...booked.deliveries].filter((r) => r.date === date).reduce((s, r) => s + Number(r.n), 0);
          const plant = actionIds.map((action_id) => {
            const c = cap!.of(action_id, date);
            const used = load!.of(action_id, date);
            return { action_id, capacity: c, assigned: used, left: c === null ? null : capacityLeft(c, used) };
          });
          const room: DayRoom = { date, left: capacityLeft(capacity, assigned), plantLeft: plant.map((p) => p.left) };
          return {
            date,
            day_of_week: dayOfWeek(date),
            capacity,
            assigned,
            left: room.left,
            colour: loadColour(assigned, capacity),
            plant,
            ok: dayFits(room),
            room,
          };
        });
      };
      const from = q.from ?? today();
      const listed = await roomFor(from, q.days);
      const start = q.default_date ?? from;
      let proposed = proposeDate(
        listed.map((d) => d.room),
        start,
      );
      // Past the listed days, look further a month at a time (bounded).
      const listedEnd = addDays(from, q.days);
      let next = start > listedEnd ? start : listedEnd;
      while (!proposed && next <= addDays(start, PROPOSAL_HORIZON)) {
        proposed = proposeDate(
          (await roomFor(next, PROPOSAL_CHUNK)).map((d) => d.room),
          start,
        );
        next = addDays(next, PROPOSAL_CHUNK);
      }
      return { locality_id: q.locality, days: listed.map(({ room, ...d }) => d), proposed };
    },
  };
}
