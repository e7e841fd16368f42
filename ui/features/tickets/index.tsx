export { CustomerTickets } from "./CustomerTickets";
export { TicketEdit } from "./TicketEdit";
export { TicketsList } from "./TicketsList";
export { TicketView } from "./TicketView";
