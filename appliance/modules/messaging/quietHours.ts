// The quiet hours setting (issue 25): one per box, in the shop's time zone, read through its
// schema (a hand edit or an older shape reads as the default, said in the log).
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { boxSettings } from "../../../db/schema";
import { DEFAULT_QUIET_HOURS } from "../../domain/quietHours";
import type { Clock } from "../../platform/clock";
import { audit } from "../audit/audit";
import type { EmployeeCaller } from "../auth/caller";
import { QuietHoursSettings } from "./model";

const KEY = "messaging_quiet_hours";

export function createQuietHours({ db, clock, log }: { db: Db; clock: Clock; log: (m: string) => void }) {
  return {
    async get(): Promise<QuietHoursSettings> {
      const row = await db.query.boxSettings.findFirst({ where: eq(boxSettings.key, KEY) });
      if (!row) return DEFAULT_QUIET_HOURS;
      try {
        const parsed = QuietHoursSettings.safeParse(JSON.parse(row.value));
        if (parsed.success) return parsed.data;
      } catch {}
      log(`box_settings "${KEY}": not valid quiet hours; using ${DEFAULT_QUIET_HOURS.start}–${DEFAULT_QUIET_HOURS.end} until they are saved again`);
      return DEFAULT_QUIET_HOURS;
    },
    async save(caller: EmployeeCaller, q: QuietHoursSettings): Promise<QuietHoursSettings> {
      const value = JSON.stringify(q);
      await db.transaction(async (tx) => {
        await tx.insert(boxSettings).values({ key: KEY, value }).onConflictDoUpdate({ target: boxSettings.key, set: { value } });
        await audit(tx, clock.now(), caller, "configure", "messaging_quiet_hours", null, q);
      });
      return q;
    },
  };
}
export type QuietHoursStore = ReturnType<typeof createQuietHours>;
