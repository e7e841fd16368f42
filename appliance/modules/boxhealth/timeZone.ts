import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../../../db/client";
import { boxSettings } from "../../../db/schema";
import { DEFAULT_TZ, isTimeZone, setShopTimeZone, shopTimeZone } from "../../domain/dates";
import type { Clock } from "../../platform/clock";
import { conflict, unprocessable } from "../../platform/errors";
import { audit } from "../audit/audit";
import type { TimeZoneBody, TimeZoneSetting } from "./model";
import type { EmployeeCaller } from "../auth/caller";

const KEY = "time_zone";
/** IRONBOX_TIME_ZONE as the process started: read once, before a saved zone is written into the environment. */
export const ENV_TIME_ZONE = process.env.IRONBOX_TIME_ZONE?.trim() || null;

/**
 * The shop's time zone as a box setting (issue 25): Europe/Malta unless an admin picks
 * another on "The box". IRONBOX_TIME_ZONE, when set, is the installer's choice and wins (as
 * IRONBOX_BACKUP_DIR does). The zone lives in the process (domain/dates) and in its
 * environment, so report and backup children started after a change agree with it; tablets
 * take it from /health at their next load.
 */
export function createTimeZoneSetting({ db, clock, envZone }: { db: Db; clock: Clock; envZone: string | null }) {
  const apply = (tz: string) => {
    setShopTimeZone(tz);
    process.env.IRONBOX_TIME_ZONE = tz;
  };
  const stored = async () => (await db.query.boxSettings.findFirst({ where: eq(boxSettings.key, KEY) }))?.value ?? null;
  return {
    /** At boot: the stored zone applies unless the environment sets one. An unknown stored name is ignored. */
    async load() {
      if (envZone) return;
      const tz = await stored();
      if (tz && isTimeZone(tz)) apply(tz);
    },
    async get(): Promise<z.infer<typeof TimeZoneSetting>> {
      if (envZone) return { time_zone: envZone, from: "env" };
      return { time_zone: shopTimeZone(), from: (await stored()) ? "settings" : "default" };
    },
    async save(caller: EmployeeCaller, body: z.infer<typeof TimeZoneBody>) {
      if (envZone) throw conflict("IRONBOX_TIME_ZONE sets the time zone on this box: change it there");
      const tz = body.time_zone;
      if (!isTimeZone(tz) || !tz.includes("/")) throw unprocessable(`time_zone: not a time zone (e.g. ${DEFAULT_TZ})`);
      const before = shopTimeZone();
      await db.transaction(async (tx) => {
        await tx
          .insert(boxSettings)
          .values({ key: KEY, value: tz })
          .onConflictDoUpdate({ target: boxSettings.key, set: { value: tz } });
        await audit(tx, clock.now(), caller, "update", "time_zone", null, { time_zone: [before, tz] });
      });
      apply(tz);
      return this.get();
    },
  };
}
export type TimeZoneSettingService = ReturnType<typeof createTimeZoneSetting>;
