// Issue 35: the customer's booking page on the public listener, server-rendered like the status
// page (no script, no inline style: the strict CSP holds and it works without JavaScript).
// Three steps, each a plain form that POSTs: the locality and phone (→ the code, the same
// service as POST /public/v1/otp), then the code, address, day and note (→ the same service as
// POST /public/v1/bookings), then the confirmation or a clear error. No cookie: the locality and
// phone travel in hidden fields (the code only ever in a POST body, never a URL), and each form
// carries a token signed with a key of this process, bound to its step and to those fields, good
// for FORM_MINUTES (a forged or stale form is refused; a restart asks the customer to start again).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { displayDate } from "../../domain/format";
import { dayOfWeek, WEEKDAYS } from "../../domain/schedule";
import { route, type RouteDef } from "../../http/route";
import { SECURITY_HEADERS_PUBLIC } from "../../http/security";
import type { Clock } from "../../platform/clock";
import { AppError } from "../../platform/errors";
import type { RateLimit } from "../../platform/rateLimit";
import { BookingBody, OtpBody } from "./model";
import { CodeRefused, CODE_SENT, phoneSpellings } from "./otp";
import { html, shell } from "./page";
import type { PublicService } from "./service";

export const FORM_MINUTES = 30;
export const longDay = (day: string) => `${WEEKDAYS[dayOfWeek(day)]} ${displayDate(day)}`;

type Limits = Record<"otpAddress" | "otpPhone" | "bookingAddress" | "bookingPhone", RateLimit>;
type Fields = Record<string, string>;

export function formTokens(clock: Clock, key: Buffer = randomBytes(32)) {
  const mac = (step: string, at: string, bound: string) => createHmac("sha256", key).update(`${step}|${at}|${bound}`).digest("base64url");
  return {
    make: (step: string, bound = "") => {
      const at = String(clock.now().getTime());
      return `${at}.${mac(step, at, bound)}`;
    },
    ok: (token: string | undefined, step: string, bound = "") => {
      const [at, sig] = (token ?? "").split(".");
      if (!at || !sig || !/^\d{1,15}$/.test(at)) return false;
      const age = clock.now().getTime() - Number(at);
      if (age < 0 || age > FORM_MINUTES * 60_000) return false;
      const want = Buffer.from(mac(step, at, bound));
      const got = Buffer.from(sig);
      return got.length === want.length && timingSafeEqual(got, want);
    },
  };
}

const page = (status: number, title: string, body: string) =>
  new Response(shell(title, body), {
    status,
    headers: { ...SECURITY_HEADERS_PUBLIC, "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
const errorBox = (m: string) => (m ? `<p class="error" role="alert">${html(m)}</p>` : "");
const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${html(value)}">`;
const field = (label: string, name: string, value: string, attrs: string) =>
  `<label>${html(label)}<input name="${name}" value="${html(value)}" ${attrs}></label>`;

export function bookingPages(s: PublicService, limits: Limits, clock: Clock, slowDown: string): RouteDef[] {
  const tokens = formTokens(clock);
  const bound = (locality: string, phone: string) => `${locality}|${phoneSpellings(phone)?.dial ?? phone}`;
  const restart = `<p><a href="/book">Start again</a></p>`;

  async function stepOne(status: number, error = "", f: Fields = {}) {
    const options = (await s.localities())
      .map((l) => `<option value="${l.id}"${String(l.id) === f.locality ? " selected" : ""}>${html(l.name)}</option>`)
      .join("");
    return page(
      status,
      "Book a pickup",
      `<h1>Book a pickup</h1>${errorBox(error)}<form method="post" action="/book/code">${hidden("t", tokens.make("phone"))}<label>Where do we collect?<select name="locality" required><option value="">Choose your locality</option>${options}</select></label>${field("Your mobile (the one the shop has)", "phone", f.phone ?? "", 'type="tel" inputmode="tel" autocomplete="tel" required maxlength="30"')}<button type="submit">Send me a code</button></form>`,
    );
  }

  async function stepTwo(status: number, f: Fields, error = "", prefer?: string) {
    const locality = Number(f.locality);
    const days = (await s.pickupDays(locality)).days;
    if (!days.length)
      return page(status, "No day free", `<h1>No day free</h1><p>There is no day with room in the next two weeks: please call the shop.</p>${restart}`);
    const chosen = prefer ?? f.day;
    const options = days.map((d) => `<option value="${d.day}"${d.day === chosen ? " selected" : ""}>${html(longDay(d.day))}</option>`).join("");
    return page(
      status,
      "Book a pickup",
      `<h1>Book a pickup</h1>${errorBox(error)}<p>${html(CODE_SENT)}.</p><form method="post" action="/book">${hidden("t", tokens.make("book", bound(f.locality ?? "", f.phone ?? "")))}${hidden("locality", f.locality ?? "")}${hidden("phone", f.phone ?? "")}${field("The 6-digit code", "code", f.code ?? "", 'inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required')}${field("Street", "street", f.street ?? "", 'autocomplete="address-line1" maxlength="120" required')}${field("House number or name", "number", f.number ?? "", 'maxlength="20" required')}<label>Day<select name="day" required>${options}</select></label><label>Note for the driver<textarea name="note" maxlength="500">${html(f.note ?? "")}</textarea></label><button type="submit">Book</button></form>${restart}`,
    );
  }

  const read = (rawBody: string): Fields => Object.fromEntries(new URLSearchParams(rawBody));
  const take = (limit: RateLimit, key: string) => limit.take(key);
  const phoneKey = (phone: string) => phoneSpellings(phone)?.dial ?? phone.replace(/\s+/g, "");
  const common = { tag: "Public face", access: { public: true } as const, raw: true };

  return [
    route({
      ...common,
      method: "GET",
      path: "/book",
      summary: "The booking page, step 1: the locality and the mobile (HTML, no script)",
      handler: () => stepOne(200),
    }),
    route({
      ...common,
      method: "POST",
      path: "/book/code",
      summary: "The booking page, step 2: sends the code (as POST /public/v1/otp) and asks for it with the address and day",
      handler: async ({ rawBody, client }) => {
        const f = read(rawBody);
        if (!tokens.ok(f.t, "phone")) return stepOne(400, "This form is too old: please try again", f);
        const locality = z.coerce
          .number()
          .int()
          .positive()
          .max(2 ** 31)
          .safeParse(f.locality);
        const phone = OtpBody.safeParse({ phone: f.phone ?? "" });
        if (!locality.success) return stepOne(422, "Choose your locality", f);
        if (!phone.success) return stepOne(422, "Write your mobile number (digits, optionally starting with +)", f);
        if (!take(limits.otpAddress, client) || !take(limits.otpPhone, phoneKey(phone.data.phone))) return stepOne(429, slowDown, f);
        await s.sendCode(phone.data.phone);
        return stepTwo(200, { locality: String(locality.data), phone: phone.data.phone });
      },
    }),
    route({
      ...common,
      method: "POST",
      path: "/book",
      summary: "The booking page, step 3: books (as POST /public/v1/bookings) and confirms, or says what went wrong",
      handler: async ({ rawBody, client }) => {
        const f = read(rawBody);
        if (!tokens.ok(f.t, "book", bound(f.locality ?? "", f.phone ?? ""))) return stepOne(400, "This form is too old: please start again", f);
        const input = BookingBody.safeParse({
          phone: f.phone ?? "",
          code: f.code ?? "",
          locality: Number(f.locality),
          street: f.street ?? "",
          number: f.number ?? "",
          day: f.day ?? "",
          note: f.note ?? "",
        });
        if (!input.success) {
          const path = String(input.error.issues[0]?.path[0] ?? "");
          const what: Fields = { code: "Write the 6-digit code from the SMS", street: "Write the street", number: "Write the house number or name" };
          return stepTwo(422, f, what[path] ?? "Check the form and try again");
        }
        if (!take(limits.bookingAddress, client) || !take(limits.bookingPhone, phoneKey(input.data.phone))) return stepTwo(429, f, slowDown);
        try {
          const b = await s.book(input.data);
          return page(
            200,
            "Booked",
            `<h1>Booked</h1><p class="state" data-booked="${b.day}">Booked for ${html(longDay(b.day))}</p><p>We will collect at ${html(input.data.street)} ${html(input.data.number)}. We will confirm by SMS.</p>`,
          );
        } catch (e) {
          if (e instanceof CodeRefused && e.triesLeft > 0)
            return stepTwo(422, { ...f, code: "" }, `That code is not right: ${e.triesLeft} ${e.triesLeft === 1 ? "try" : "tries"} left`);
          if (e instanceof AppError && e.kind === "invalid" && /code/i.test(e.message))
            return page(422, "Code not valid", `<h1>Code not valid</h1>${errorBox(e.message)}${restart}`);
          if (e instanceof AppError && e.kind === "conflict") {
            // The day filled meanwhile: the page offers the next day with room (the code was not used).
            const next = (await s.pickupDays(input.data.locality)).days.find((d) => d.day > input.data.day);
            return stepTwo(
              409,
              f,
              next
                ? `That day is full: the next day with room is ${longDay(next.day)}`
                : "That day is full, and so are the next two weeks: please call the shop",
              next?.day,
            );
          }
          if (e instanceof AppError && e.kind === "invalid") return stepTwo(422, f, e.message);
          throw e;
        }
      },
    }),
  ];
}
