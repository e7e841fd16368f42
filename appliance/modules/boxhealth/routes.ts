import { HQ_STAFF, route } from "../../http/route";
import { conflict } from "../../platform/errors";
import type { NightlyBackups } from "./backups";
import { BackupDirBody, BoxHealth, TimeZoneBody, TimeZoneSetting } from "./model";
import type { BoxHealthService } from "./service";
import type { TimeZoneSettingService } from "./timeZone";

export function boxHealthRoutes(service: BoxHealthService, backups?: NightlyBackups, timeZone?: TimeZoneSettingService) {
  const nightly = () => {
    if (!backups) throw conflict("This box's database is not a local file: its backups are the database server's");
    return backups;
  };
  return [
    route({
      method: "GET",
      path: "/box/health",
      tag: "box",
      summary:
        "The box's health (admins): printers and guns with their state and last good job, disk free, database size and last check, the HQ link's lag, the last backup, version, uptime, certificate, and what needs a person",
      access: { roles: ["admin"] },
      response: BoxHealth,
      handler: () => service.health(),
    }),
    route({
      method: "POST",
      path: "/box/backup",
      tag: "box",
      summary:
        "Takes a backup now (admins): a checked copy of the database into the data disk's backups/manual and the backup folder's manual/, apart from the nightly copies (the newest 3 kept); 429 within 10 minutes of the last, 409 while one is taken; answers the box's health",
      access: { roles: ["admin"] },
      response: BoxHealth,
      handler: async () => {
        await nightly().runManual();
        return service.health();
      },
    }),
    route({
      method: "PUT",
      path: "/box/backup",
      tag: "box",
      summary:
        "Sets the second disk or USB stick the nightly backup also goes to (HQ staff; an existing folder under /srv, /mnt or /media; null for none); 409 when IRONBOX_BACKUP_DIR sets it; audited",
      // HQ staff only: the folder receives the whole database (every shop's customers on a shared box).
      access: HQ_STAFF,
      body: BackupDirBody,
      response: BoxHealth,
      handler: async ({ caller, body }) => {
        await nightly().saveSecondDir(caller, body);
        return service.health();
      },
    }),
    ...(timeZone
      ? [
          route({
            method: "GET",
            path: "/box/timeZone",
            tag: "box",
            summary: "The shop's time zone (admins) and where it comes from: the screen, the default, or IRONBOX_TIME_ZONE",
            access: { roles: ["admin"] },
            response: TimeZoneSetting,
            handler: () => timeZone.get(),
          }),
          route({
            method: "PUT",
            path: "/box/timeZone",
            tag: "box",
            summary: "Sets the shop's time zone (HQ staff: it is the whole box's); 422 for an unknown zone, 409 when IRONBOX_TIME_ZONE sets it; audited",
            // The box's, not one agent's: on a shared box every shop's days move with it.
            access: HQ_STAFF,
            body: TimeZoneBody,
            response: TimeZoneSetting,
            handler: ({ caller, body }) => timeZone.save(caller, body),
          }),
        ]
      : []),
  ];
}
