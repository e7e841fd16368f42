/** The shop's online bookings (issue 35); the route table imports this name. */
export { BookingsScreen } from "./BookingsScreen";
