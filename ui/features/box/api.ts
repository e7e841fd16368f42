import type { BoxHealth } from "../../../appliance/modules/boxhealth/model";
import { api } from "../../lib/api";

/** The box's health (admins). `quiet`: the home tile stays silent if it cannot be read. */
export const boxHealth = (quiet = false) => api<BoxHealth>("GET", "/box/health", { quiet });
