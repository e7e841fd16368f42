import type { SettleBody, ShopBooking } from "../../../appliance/modules/bookings/model";
import { api } from "../../lib/api";

export type { ShopBooking };
export const listBookings = () => api<ShopBooking[]>("GET", "/bookings/", { quiet: true });
export const settleBooking = (id: number, body: SettleBody) => api<ShopBooking>("PUT", `/bookings/${id}`, { body });
