import { parseDiscount } from "../../../appliance/domain/money";
import { withApproval } from "../../components/approval";
import type { Ticket } from "../../../appliance/modules/tickets/model";
import { setTicketDiscount } from "./api";

/**
 * Asks for a ticket discount in percent (the counter's and the ticket view's Discount button)
 * and sets it, through a manager when above the employee's limit. The changed ticket, or null
 * when the question was dismissed or the change refused.
 */
export async function askTicketDiscount(ticket: Ticket): Promise<Ticket | null> {
  const v = window.prompt("Ticket discount (%)", String(parseDiscount(ticket.discount)));
  if (v === null) return null;
  return withApproval(setTicketDiscount(ticket.id, parseDiscount(v)));
}
