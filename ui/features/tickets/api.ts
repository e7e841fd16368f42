import type { Approval } from "../../components/approval";
import { api } from "../../lib/api";

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

export const getTicket = (id: number) => api<Ticket>("GET", `/tickets/${id}`);
export const putTicket = (path: string, query?: Record<string, string | number>) => api<Ticket>("PUT", path, { query });
export const putItem = (id: number, body: unknown) => api<Item>("PUT", `/ticketSubCategory/${id}`, { body });
/**
 * Changes that may need a manager's approval (issue 11): quiet, so withApproval() decides
 * what to show; `approval` is the manager's PIN when the box asked for one.
 */
export const setTicketDiscount = (id: number, discount: number) => (approval?: Approval) =>
  api<Ticket>("PUT", `/tickets/${id}/discount`, { query: { discount }, body: approval ? { approval } : undefined, quiet: true });
export const setItemOverride = (id: number, total_override: number | null) => (approval?: Approval) =>
  api<Item>("PUT", `/ticketSubCategory/${id}`, { body: { total_override, ...(approval ? { approval } : {}) }, quiet: true });
export const removeItem = (id: number) => (approval?: Approval) => api<boolean>("DELETE", `/ticketSubCategory/${id}`, { body: approval ? { approval } : undefined, quiet: true });
/** Spec §9: VAT 18 % included; the subtotal is the total divided by 1.18. */
export const vat = (total: number) => {
  const subtotal = Math.round((total / 1.18) * 100) / 100;
  return { subtotal, vat: Math.round((total - subtotal) * 100) / 100 };
};
/** Spec §2: the pay button shows PAID or the balance. */
export const payLabel = (balance: number, fmt: (n: number) => string) => (balance <= 0 ? "PAID" : fmt(balance));
