import type { BoxHealth } from "../../../appliance/modules/boxhealth/model";
import { api } from "../../lib/api";

/** The box's health (admins). `quiet`: the home tile stays silent if it cannot be read. */
export const boxHealth = (quiet = false) => api<BoxHealth>("GET", "/box/health", { quiet });

/** Takes a backup now (admins); answers the box's health. */
export const backupNow = () => api<BoxHealth>("POST", "/box/backup");
