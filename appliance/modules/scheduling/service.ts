/**
 * Scheduling: the plant's monthly workload configurations, the vans' pickup/delivery
 * capacity per locality and season, the scheduler's week, the plant's load per action, the
 * counter's date proposal and a driver's run. Money is cents here.
 *
 * Who sees what: capacities and load counts are numbers without personal data and the vans
 * and the plant serve every shop, so they are counted chain-wide (a shop booking a pickup must
 * see the van's whole day). Lists of tickets, items and stops are the caller's shop's (HQ all).
 *
 * One file per job: booked.ts (what a booked stop is), counts.ts (capacities and loads),
 * lists.ts (a day's tickets and items), configurations.ts (the settings screens), planner.ts
 * (the weeks), availability.ts (the counter's proposal), driverRun.ts (a driver's stops).
 */
import type { Db } from "../../../db/client";
import type { Clock } from "../../platform/clock";
import { createAvailability } from "./availability";
import { createConfigurationOps } from "./configurations";
import { createScheduleCounts } from "./counts";
import { createDriverRun } from "./driverRun";
import { createScheduleLists } from "./lists";
import { createPlanner } from "./planner";

export type { ConfigurationInput, PickupDeliveryRecord } from "./configurations";

export function createSchedulingService({ db, clock }: { db: Db; clock: Clock }) {
  const counts = createScheduleCounts(db);
  const lists = createScheduleLists(db);
  return {
    ...createConfigurationOps({ db, clock }),
    ...createPlanner({ db, clock, counts, lists }),
    ...createAvailability({ db, clock, counts }),
    ...createDriverRun({ db, lists }),
  };
}

export type SchedulingService = ReturnType<typeof createSchedulingService>;
