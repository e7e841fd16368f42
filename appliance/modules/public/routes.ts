// Issue 35: the public face's routes, mounted ONLY on the public listener (http/publicApp.ts)
// under /public/v1, never on the staff API; every one is public and rate-limited per address,
// the code and booking routes per phone too. Answers never tell a bad token, or an unknown
// phone, from another. The status page and its stylesheet are `pages` (mounted at the root).
import { z } from "zod";
import { route, type RouteDef } from "../../http/route";
import { SECURITY_HEADERS_PUBLIC } from "../../http/security";
import { AppError, tooMany } from "../../platform/errors";
import { type RateLimit, rateLimit } from "../../platform/rateLimit";
import { Booking, BookingBody, OtpAnswer, OtpBody, PickupDays, PickupDaysQuery, PublicStatus, TokenParams } from "./model";
import { phoneSpellings } from "./otp";
import { bookingPages } from "./bookRoutes";
import { missingPage, PUBLIC_CSS, statusPage } from "./page";
import { NO_SUCH_LINK, type PublicService } from "./service";

const tag = "Public face";
const access = { public: true } as const;

export type PublicLimits = Record<"status" | "pickupDays" | "otpAddress" | "otpPhone" | "bookingAddress" | "bookingPhone", RateLimit>;
/** Per address: a phone opening its link now and then; per phone: a few codes an hour. */
export const defaultLimits = (): PublicLimits => ({
  status: rateLimit({ burst: 30, everyMs: 2_000 }),
  pickupDays: rateLimit({ burst: 30, everyMs: 2_000 }),
  otpAddress: rateLimit({ burst: 5, everyMs: 120_000 }),
  otpPhone: rateLimit({ burst: 3, everyMs: 300_000 }),
  bookingAddress: rateLimit({ burst: 10, everyMs: 30_000 }),
  bookingPhone: rateLimit({ burst: 8, everyMs: 60_000 }),
});

const SLOW_DOWN = "Too many requests: wait a minute and try again";
function take(limit: RateLimit, key: string) {
  if (!limit.take(key)) throw tooMany(SLOW_DOWN);
}
/** A phone's key: its dialled form, so "+356 7912 3456" and "79123456" share a bucket. */
const phoneKey = (phone: string) => phoneSpellings(phone)?.dial ?? phone.replace(/\s+/g, "");

export function publicRoutes(s: PublicService, limits: PublicLimits = defaultLimits()): { api: RouteDef[]; pages: RouteDef[] } {
  const api = [
    route({
      method: "GET",
      path: "/status/:token",
      tag,
      summary: "A ticket's status by its link's token: state in words, garments, the van's day, balance, the shop's phone",
      access,
      params: TokenParams,
      response: PublicStatus,
      handler: async ({ params, client }) => {
        take(limits.status, client);
        const status = await s.status(params.token);
        if (!status) throw new AppError("not_found", NO_SUCH_LINK);
        return status;
      },
    }),
    route({
      method: "GET",
      path: "/pickupDays",
      tag,
      summary: "The next days with room for a pickup in a locality, by the counter's own capacity rules (none for an unknown locality)",
      access,
      query: PickupDaysQuery,
      response: PickupDays,
      handler: ({ query, client }) => {
        take(limits.pickupDays, client);
        return s.pickupDays(query.locality);
      },
    }),
    route({
      method: "POST",
      path: "/otp",
      tag,
      summary: "Sends a one-time code to a mobile a shop knows; the same answer for any number",
      access,
      body: OtpBody,
      response: OtpAnswer,
      handler: ({ body, client }) => {
        take(limits.otpAddress, client);
        take(limits.otpPhone, phoneKey(body.phone));
        return s.sendCode(body.phone);
      },
    }),
    route({
      method: "POST",
      path: "/bookings",
      tag,
      summary: "Books a pickup with the code sent to the phone; 409 with the next day with room when the day is full",
      access,
      body: BookingBody,
      response: Booking,
      idempotent: true,
      handler: ({ body, client }) => {
        take(limits.bookingAddress, client);
        take(limits.bookingPhone, phoneKey(body.phone));
        return s.book(body);
      },
    }),
  ];
  const pages = [
    ...bookingPages(s, limits, s.clock, SLOW_DOWN),
    route({
      method: "GET",
      path: "/s/:token",
      tag,
      summary: "The status page a message's link opens (HTML, no script)",
      access,
      params: z.object({ token: z.string().max(200) }),
      raw: true,
      handler: async ({ params, client }) => {
        const headers = { ...SECURITY_HEADERS_PUBLIC, "content-type": "text/html; charset=utf-8", "cache-control": "no-store" };
        if (!limits.status.take(client)) return new Response(missingPage(SLOW_DOWN), { status: 429, headers });
        const status = await s.status(params.token);
        return status ? new Response(statusPage(status), { headers }) : new Response(missingPage(NO_SUCH_LINK), { status: 404, headers });
      },
    }),
    route({
      method: "GET",
      path: "/public.css",
      tag,
      summary: "The status page's stylesheet",
      access,
      raw: true,
      handler: () =>
        new Response(PUBLIC_CSS, { headers: { ...SECURITY_HEADERS_PUBLIC, "content-type": "text/css; charset=utf-8", "cache-control": "max-age=3600" } }),
    }),
    route({
      method: "GET",
      path: "/favicon.ico",
      tag,
      summary: "No icon (browsers ask for one): an empty answer rather than a 404 in the console",
      access,
      raw: true,
      handler: () => new Response(null, { status: 204, headers: { ...SECURITY_HEADERS_PUBLIC, "cache-control": "max-age=86400" } }),
    }),
  ];
  return { api, pages };
}
