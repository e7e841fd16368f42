import type { EmployeeName } from "../../../appliance/modules/employees/model";
import type { ExpressItem, Item, StateChangeResult } from "../../../appliance/modules/tickets/model";
import type { Journey, ScanAnswer, TrackedItem as Row } from "../../../appliance/modules/tracking/model";
import { api, apiList } from "../../lib/api";

// The calls of the tracking, express and state-log screens; the shapes are the modules' models
// (type-only). Ticket states and item payments are in ../tickets/api.

/** Quiet: the tracking screen shows a scan's failure at the top itself. */
export const scanCode = (code: string) => api<ScanAnswer>("GET", "/tracking/scan", { query: { code }, quiet: true });
/** Tracking's type=desc: the shop's items still in its hands whose description holds the text, newest first. */
export const searchByDescription = (desc: string) => api<Row[]>("GET", "/tracking/search", { query: { desc }, quiet: true });
export const getItem = (id: number) => api<Item>("GET", `/ticketSubCategory/${id}`);
/** Sets one piece of an item as sorted (or unsorted); answers the item. */
export const toggleSorted = (id: number, piece: string) => api<Item>("PUT", `/ticketSubCategory/sorted/${id}`, { query: { item: piece } });
/** A state on items, with the drawn signature when there is one; quiet when the caller shows its own message. */
export const setItemsState = (ids: number[], state: string, signature?: string, quiet = false) =>
  api<StateChangeResult>("PUT", "/ticketSubCategory/changeState", { body: { Ids: ids, State: state, Signature: signature }, quiet });
/** The day processing starts (a day; the box stores it as midnight UTC). */
export const setProcessDate = (id: number, day: string) => api<Item>("PUT", `/ticketSubCategory/processDate/${id}/${day}T00:00:00.000Z`);
export const listExpress = () => apiList<ExpressItem>("/ticketSubCategory/express/");
/** The State Logs employee filter: the shop's staff (HQ: every shop's), for every role that sees the screen. */
export const listEmployeeNames = () => apiList<EmployeeName>("/employees/names");
export const stateJourney = (query: { tid?: string; eid?: string; df: string; dt: string; s?: string }) =>
  api<Journey>("GET", "/ticketLogStates/logStateJourney/query", { query });
