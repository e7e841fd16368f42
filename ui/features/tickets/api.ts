import type { Approval } from "../../components/approval";
import { api, apiList } from "../../lib/api";

export interface ItemAction {
  id: number;
  actionID: number;
  name: string;
  price: number;
  quantity: number;
}
export interface ItemModifier {
  id: number;
  modifier_id: number;
  modifier_type: string;
  name: string;
  image: string | null;
}
export interface Item {
  id: number;
  ticket_id: number;
  garment_sub_category_id: number;
  description: string;
  pieces: string;
  sorted_items: string;
  quantity: number;
  state: string;
  comments: string;
  discount: string;
  has_express: boolean;
  total: number;
  pre_discount_total: number;
  total_override: number | null;
  total_paid: number;
  balance: number;
  sub_category: { id: number; name: string; pieces: string; allow_quantity: boolean; show_choose_pieces: boolean; images_required: boolean; category: string } | null;
  actions: ItemAction[];
  modifiers: ItemModifier[];
  image_urls: string[];
}
export interface TicketLog {
  id: number;
  state: string;
  logged_at: string;
  log: string;
  agent: string | null;
  employee: string | null;
  signature: string | null;
}
export interface Ticket {
  id: number;
  customer_id: number;
  agent_id: number;
  state: string;
  pickup_date: string | null;
  delivery_date: string | null;
  confirmed_at: string | null;
  discount: string;
  total: number;
  total_paid: number;
  balance: number;
  pickup_charge: number;
  delivery_charge: number;
  has_express_item: boolean;
  agent: string;
  employee: string;
  customer: { id: number; full_name: string; mobile: string; landline: string; address_id: number | null };
  ticket_sub_categories: Item[];
  ticket_log_states: TicketLog[];
}
export interface TicketState {
  id: number;
  name: string;
  position: number;
  hidden_in_lists: boolean;
}

/** The counter's head line: who the ticket is for. */
export interface CustomerHead {
  id: number;
  full_name: string;
  mobile: string;
  address: { line: string } | null;
}
export const getCustomerHead = (id: number) => api<CustomerHead>("GET", `/customers/${id}`);

export const getTicket = (id: number) => api<Ticket>("GET", `/tickets/${id}`);
/** Spec §8: the customer's ticket still being written; 404 or 400 mean there is none (quiet: the counter opens one). */
export const lastOpenTicket = (customerId: number) => api<Ticket>("GET", `/tickets/lastnonconfirmed/${customerId}`, { quiet: true });
export const openTicket = (customerId: number) => api<Ticket>("POST", "/tickets/", { body: { customer_id: customerId } });
export const setTicketDate = (id: number, which: "pickup" | "delivery", date: string) => api<Ticket>("PUT", `/tickets/${id}/${which}`, { query: { date } });
/** Quiet: a failed confirmation leaves the ticket open without a message (spec §8). */
export const confirmTicket = (id: number) => api<unknown>("PUT", `/tickets/${id}/confirm`, { quiet: true });
export const payTicket = (id: number) => api<Ticket>("PUT", `/tickets/paidFor/${id}`);
export const setTicketsState = (ids: number[], state: string) => api<{ success: boolean }>("PUT", "/tickets/changeState", { body: { Ids: ids, State: state } });
export const listTicketStates = () => apiList<TicketState>("/ticketStates/");
/** A row of a customer's tickets (spec §2 Customers detail). */
export interface CustomerTicketRow {
  id: number;
  state: string;
  agent_name?: string;
  agent_id?: number;
  pickup_date: string | null;
  delivery_date: string | null;
  total: number;
  total_paid: number;
  balance?: number;
}
export const listCustomerTickets = (customerId: number) => apiList<CustomerTicketRow>(`/tickets/customer/${customerId}`);
/** A row of the tickets list (spec §2 Tickets). */
export interface TicketListRow {
  id: number;
  state: string;
  pickup_date: string | null;
  delivery_date: string | null;
  total: number;
  balance: number;
  customer: { full_name: string; mobile: string };
}
export const listTickets = (query: { limit: number; offset: number; term?: string }) => apiList<TicketListRow>("/tickets/", query);
export const listTicketLogs = (ticketId: number) => apiList<TicketLog>(`/ticketLogStates/${ticketId}`);

/** `copies` items of one garment; answers the items made, the last one last. */
export const addItems = (ticketId: number, garmentId: number, copies: number) =>
  api<Item[]>("POST", "/ticketSubCategory/", { query: { copies }, body: { ticket_id: ticketId, garment_sub_category_id: garmentId } });
export const putItem = (id: number, body: unknown) => api<Item>("PUT", `/ticketSubCategory/${id}`, { body });
export const duplicateItem = (id: number, quantity: number) => api<Item[]>("POST", `/ticketSubCategory/duplicate/${id}/quantity/${quantity}`);
/** A payment on one item: `amount` euros, or its whole balance when `full`. */
export const payItem = (id: number, amount: number, full = false) => api<Item>("PUT", `/ticketSubCategory/paidFor/${id}/${amount}`, { query: full ? { full: "true" } : undefined });
/** An action on an item; one that needs a photo carries its image ids, or override_images to go without. */
export const addItemAction = (itemId: number, actionId: number, photo?: { images: number[]; override_images: boolean }) =>
  api<unknown>("POST", "/ticketSubCategoryActions/", { body: { ticket_sub_category_id: itemId, action_id: actionId, ...photo } });
export const removeItemAction = (rowId: number) => api<unknown>("DELETE", "/ticketSubCategoryActions/", { query: { id: rowId } });
export const addItemModifier = (itemId: number, modifierId: number) => api<unknown>("POST", "/ticketSubCategoryModifier/", { body: { ticket_sub_category_id: itemId, modifier_id: modifierId } });
export const removeItemModifier = (rowId: number) => api<unknown>("DELETE", "/ticketSubCategoryModifier/", { query: { id: rowId } });

/**
 * Changes that may need a manager's approval (issue 11): quiet, so withApproval() decides
 * what to show; `approval` is the manager's PIN when the box asked for one.
 */
export const setTicketDiscount = (id: number, discount: number) => (approval?: Approval) =>
  api<Ticket>("PUT", `/tickets/${id}/discount`, { query: { discount }, body: approval ? { approval } : undefined, quiet: true });
export const setItemOverride = (id: number, total_override: number | null) => (approval?: Approval) =>
  api<Item>("PUT", `/ticketSubCategory/${id}`, { body: { total_override, ...(approval ? { approval } : {}) }, quiet: true });
export const removeItem = (id: number) => (approval?: Approval) => api<boolean>("DELETE", `/ticketSubCategory/${id}`, { body: approval ? { approval } : undefined, quiet: true });
/** Spec §2: the pay button shows PAID or the balance. */
export const payLabel = (balance: number, fmt: (n: number) => string) => (balance <= 0 ? "PAID" : fmt(balance));
