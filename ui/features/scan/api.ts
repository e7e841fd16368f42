import type { EmployeeName } from "../../../appliance/modules/employees/model";
import type { ExpressItem, Item, StateChangeResult } from "../../../appliance/modules/tickets/model";
import type { SendResult } from "../../../appliance/modules/messaging/model";
import type { Journey, LocationResult, ScanAnswer, TicketLocations, TrackedItem as Row, Unclaimed } from "../../../appliance/modules/tracking/model";
import { api, fetchList } from "../../lib/api";

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
export const listExpress = () => fetchList<ExpressItem>("/ticketSubCategory/express/");
/** The State Logs employee filter: the shop's staff (HQ: every shop's), for every role that sees the screen. */
export const listEmployeeNames = () => fetchList<EmployeeName>("/employees/names");
export const stateJourney = (query: { tid?: string; eid?: string; df: string; dt: string; s?: string }) =>
  api<Journey>("GET", "/ticketLogStates/logStateJourney/query", { query });

// Issue 25 "Where is it?": racks and the unclaimed list (tracking module's whereabouts routes).
/** Items (ids) and whole tickets onto a rack or slot; "" takes them off. Quiet: the screens say what failed. */
export const setLocation = (where: { Ids?: number[]; ticket_ids?: number[] }, location: string) =>
  api<LocationResult>("PUT", "/ticketSubCategory/location", { body: { ...where, location }, quiet: true });
/** Where each of these tickets' items wait (the caller's shop's tickets; none listed when none is placed). */
export const ticketLocations = (ids: number[]) => api<TicketLocations[]>("GET", "/tickets/locations", { query: { ids: ids.join(",") }, quiet: true });
export const listUnclaimed = (days: number) => api<Unclaimed>("GET", "/ticketSubCategory/unclaimed", { query: { days }, quiet: true });
/** The messaging module's bulk send (admins), called as it is: the reminder of the unclaimed list. */
export const sendReminder = (customer_ids: number[], text: string) =>
  api<SendResult>("POST", "/customers/sendMessages", { query: { all: false }, body: { customer_ids, text } });
