import type { Configuration, ConfigurationBody, PickupDelivery, PickupDeliveryInput, Run, ScheduleDay } from "../../../appliance/modules/scheduling/model";
import { api, fetchList } from "../../lib/api";

export type { Configuration, PickupDelivery, PickupDeliveryInput, Run, RunStop, ScheduleDay, SimpleTicket } from "../../../appliance/modules/scheduling/model";

export interface Named {
  id: number;
  name: string;
}

/** Spec §9: the scheduler asks 10 tickets a day, 20 from the week button, all in the day views. */
export const LIMIT_DEFAULT = 10;
export const LIMIT_WEEK_BUTTON = 20;
export const LIMIT_DAY = 9_999_999_999;

export const listConfigurations = () => fetchList<Configuration>("/configurations/");
/** Spec §5: id 0 creates, any other id updates; quiet, so the screen shows spec §8's wording. */
export const saveConfiguration = (id: number, body: ConfigurationBody) =>
  id ? api<Configuration>("PUT", `/configurations/${id}`, { body, quiet: true }) : api<Configuration>("POST", "/configurations/", { body, quiet: true });

export const listPickupDeliveries = () => fetchList<PickupDelivery>("/pickupDeliveries/");
/** The whole list at once: the box replaces every setting in one transaction. */
export const savePickupDeliveries = (body: PickupDeliveryInput[]) => api<PickupDelivery[]>("POST", "/pickupDeliveries/", { body, quiet: true });

export const scheduleWeek = (week: number, year: number, query: { limit: number; date?: string; type?: "pickups" | "deliveries" }) =>
  api<ScheduleDay[]>("GET", `/statistics/schedule/week/${week}/year/${year}`, { query });

export const driverRun = (date: string, driver?: number) => api<Run>("GET", "/schedule/run", { query: { date, driver } });

/** Spec §4: any state can be set from the scheduler, through the ticket state endpoint. */
export const setTicketState = (id: number, state: string) =>
  api<{ success: boolean }>("PUT", "/tickets/changeState", { body: { Ids: [id], State: state } }).then(
    (r) => r.success,
    () => false,
  );
