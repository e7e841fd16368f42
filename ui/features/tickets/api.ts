import type { Payment, PayMethod, Tender } from "../../../appliance/modules/money/model";
import type { CustomerDetail, CustomerTicket } from "../../../appliance/modules/customers/model";
import type { Address, AddressInput } from "../../../appliance/modules/places/model";
import type { Availability } from "../../../appliance/modules/scheduling/model";
import type {
  Item,
  ItemUpdate,
  StateChangeResult,
  Ticket,
  TicketListRow,
  TicketLog,
  TicketOptions,
  TicketState,
} from "../../../appliance/modules/tickets/model";
import { balanceDue, creditOwed, toCents, toEuros } from "../../../appliance/domain/money";
import type { Approval } from "../../components/approval";
import { api, fetchList } from "../../lib/api";

// The calls the tickets screens make. The shapes are the box's own: the modules' models,
// imported type-only (README "Layout").

/** The counter's head line: who the ticket is for. */
export const getCustomer = (id: number) => api<CustomerDetail>("GET", `/customers/${id}`);

export const getTicket = (id: number) => api<Ticket>("GET", `/tickets/${id}`);
/** Spec §8: the customer's ticket still being written; 404 or 400 mean there is none (quiet: the counter opens one). */
export const lastOpenTicket = (customerId: number) => api<Ticket>("GET", `/tickets/lastnonconfirmed/${customerId}`, { quiet: true });
export const openTicket = (customerId: number) => api<Ticket>("POST", "/tickets/", { body: { customer_id: customerId } });
/** Quiet: a failed confirmation leaves the ticket open without a message (spec §8). */
export const confirmTicket = (id: number) => api<unknown>("PUT", `/tickets/${id}/confirm`, { quiet: true });
export const payTicket = (id: number) => api<Ticket>("PUT", `/tickets/paidFor/${id}`);
/** One tender of a payment (issue 24): `amount` euros (less than the balance: a split), for cash what was `tendered`. */
export const payTicketBy = (id: number, { approval, ...pay }: { method: PayMethod; amount: number; tendered?: number; approval?: { pin: string } }) =>
  api<Ticket>("PUT", `/tickets/paidFor/${id}`, { query: pay, quiet: true, ...(approval ? { body: { approval } } : {}) });
/** One tender for an item (the item pay dialog); quiet, the dialog shows the failure. */
export const payItemBy = (id: number, pay: { method: PayMethod; amount: number; tendered?: number; approval?: { pin: string } }) =>
  api<Item>("PUT", `/ticketSubCategory/paidFor/${id}/${pay.amount}`, {
    query: { method: pay.method, ...(pay.tendered !== undefined ? { tendered: pay.tendered } : {}) },
    quiet: true,
    // A charge past a business account's credit limit carries a manager's PIN (issue 34).
    ...(pay.approval ? { body: { approval: pay.approval } } : {}),
  });
/** Refunds part or all of a payment; quiet, so withApproval() asks a manager when the box wants one. */
export const refundPayment = (id: number, amount: number, reason: string) => (approval?: Approval) =>
  api<Payment>("POST", `/payments/${id}/refund`, { body: { amount, reason, ...(approval ? { approval } : {}) }, quiet: true });
/** A ticket's payment and refund rows (issue 24). */
export const listPayments = (ticketId: number) => fetchList<Payment>("/payments/", { ticket: ticketId });
export const setTicketsState = (ids: number[], state: string) => api<StateChangeResult>("PUT", "/tickets/changeState", { body: { Ids: ids, State: state } });
export const listTicketStates = () => fetchList<TicketState>("/ticketStates/");
/** A customer's tickets (spec §2 Customers detail) with the agent that took each, newest first. */
export const listCustomerTickets = (customerId: number) => fetchList<CustomerTicket>(`/customers/${customerId}/tickets`);
export const listTickets = (query: { limit: number; offset: number; term?: string; tab?: string; notState?: string[] }) =>
  fetchList<TicketListRow>("/tickets/", query);
export const listTicketLogs = (ticketId: number) => fetchList<TicketLog>(`/ticketLogStates/${ticketId}`);

/** `copies` items of one garment; answers the items made, the last one last. */
export const addItems = (ticketId: number, garmentId: number, copies: number) =>
  api<Item[]>("POST", "/ticketSubCategory/", { query: { copies }, body: { ticket_id: ticketId, garment_sub_category_id: garmentId } });
export const putItem = (id: number, body: ItemUpdate) => api<Item>("PUT", `/ticketSubCategory/${id}`, { body });
export const duplicateItem = (id: number, quantity: number) => api<Item[]>("POST", `/ticketSubCategory/duplicate/${id}/quantity/${quantity}`);
/** A payment on one item: `amount` euros, or its whole balance when `full`; by `pay.method` (default cash), for cash what was `tendered`. */
export const payItem = (id: number, amount: number, full = false, pay?: { method: Tender; tendered?: number }) =>
  api<Item>("PUT", `/ticketSubCategory/paidFor/${id}/${amount}`, {
    query: { ...(full ? { full: "true" } : {}), ...pay },
    ...(pay ? { quiet: true } : {}),
  });
/** An action on an item; one that needs a photo carries its image ids, or override_images to go without. */
export const addItemAction = (itemId: number, actionId: number, photo?: { images: number[]; override_images: boolean }) =>
  api<unknown>("POST", "/ticketSubCategoryActions/", { body: { ticket_sub_category_id: itemId, action_id: actionId, ...photo } });
export const removeItemAction = (rowId: number) => api<unknown>("DELETE", "/ticketSubCategoryActions/", { query: { id: rowId } });
export const addItemModifier = (itemId: number, modifierId: number) =>
  api<unknown>("POST", "/ticketSubCategoryModifier/", { body: { ticket_sub_category_id: itemId, modifier_id: modifierId } });
export const removeItemModifier = (rowId: number) => api<unknown>("DELETE", "/ticketSubCategoryModifier/", { query: { id: rowId } });

/**
 * Changes that may need a manager's approval (issue 11): quiet, so withApproval() decides
 * what to show; `approval` is the manager's PIN when the box asked for one.
 */
export const setTicketDiscount = (id: number, discount: number) => (approval?: Approval) =>
  api<Ticket>("PUT", `/tickets/${id}/discount`, { query: { discount }, body: approval ? { approval } : undefined, quiet: true });
export const setItemOverride = (id: number, total_override: number | null) => (approval?: Approval) =>
  api<Item>("PUT", `/ticketSubCategory/${id}`, { body: { total_override, ...(approval ? { approval } : {}) }, quiet: true });
export const removeItem = (id: number) => (approval?: Approval) =>
  api<boolean>("DELETE", `/ticketSubCategory/${id}`, { body: approval ? { approval } : undefined, quiet: true });
/** A pickup or delivery day (spec §7 /pickup, /delivery); a van stop on a full day needs a manager. */
export const setTicketDate = (id: number, which: "pickup" | "delivery", date: string) => (approval?: Approval) =>
  api<Ticket>("PUT", `/tickets/${id}/${which}`, { query: { date }, body: approval ? { approval } : undefined, quiet: true });
/** The counter's pickup and delivery options (deliveryPickupOptions): switches, addresses, comments, charges in euros. */
export const setTicketOptions = (id: number, options: TicketOptions) => (approval?: Approval) =>
  api<Ticket>("PUT", `/tickets/${id}/deliveryPickupOptions`, { body: { ...options, ...(approval ? { approval } : {}) }, quiet: true });

/** Where the ticket's customer may be visited: their home first, then addresses their tickets used. */
export const listTicketAddresses = (ticketId: number) => fetchList<Address>(`/tickets/${ticketId}/addresses`);
/** A new address of the caller's shop (places module). */
export const createAddress = (body: AddressInput) => api<Address>("POST", "/address/", { body });
/** A locality's van room per day from `from`, and the first day with room for the ticket's actions (scheduling module). */
export const getAvailability = (query: { locality: number; from: string; days: number; default_date: string; actions: number[] }) =>
  api<Availability>("GET", "/schedule/availability", { query, quiet: true });
/**
 * Spec §2: the pay button shows PAID or the balance. A total overridden below what was paid
 * is not "PAID": it shows the credit the shop owes the customer (issue 31), by the one rule
 * in domain/money.ts. Amounts are the API's euros; an item's override replaces its total.
 */
export function payLabel(t: { total: number; total_paid: number; total_override?: number | null }, fmt: (n: number) => string): string {
  const total = toCents(t.total_override ?? t.total);
  const paid = toCents(t.total_paid);
  const credit = creditOwed(total, paid);
  if (credit > 0) return `Credit ${fmt(toEuros(credit))}`;
  const due = balanceDue(total, paid);
  return due <= 0 ? "PAID" : fmt(toEuros(due));
}
