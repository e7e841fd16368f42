import { z } from "zod";
import { IdParams } from "../../domain/schemas";
import { ROLES, route } from "../../http/route";
import { Payment, PaymentsQuery, RefundBody, TillClose, TillDay, TillParams, TillQuery } from "./model";
import type { PaymentService } from "./service";
import { pdfResponse } from "../../../drivers/pdf/document";
import { SECURITY_HEADERS } from "../../http/security";
import { zReportPdf, zShopName } from "./zReport";

const staff = { roles: ROLES };
const managers = { roles: ["admin", "manager"] } as const;

export function paymentRoutes(payments: PaymentService) {
  return [
    route({
      method: "GET",
      path: "/payments/",
      response: z.array(Payment),
      tag: "payments",
      summary: "Payment and refund rows of a ticket (?ticket=) or of a period (?from&to, Malta days), of the caller's shop (HQ: all)",
      access: staff,
      query: PaymentsQuery,
      handler: ({ caller, query }) => payments.list(caller, query),
    }),
    route({
      method: "POST",
      path: "/payments/:id/refund",
      response: Payment,
      tag: "payments",
      summary: "Refunds part or all of a payment with a reason; employees and drivers need a manager's approval",
      access: staff,
      params: IdParams,
      body: RefundBody,
      idempotent: true,
      handler: ({ caller, params, body, client }) => payments.refund(caller, params.id, body, { pin: body.approval?.pin, client }),
    }),
    route({
      method: "GET",
      path: "/till/:date",
      response: TillDay,
      tag: "payments",
      summary: "A day's drawer: expected per tender, payments, refunds, cash by employee, and its close (HQ: ?agent=)",
      access: managers,
      params: TillParams,
      query: TillQuery,
      handler: ({ caller, params, query }) => payments.tillDay(caller, params.date, query.agent),
    }),
    route({
      method: "GET",
      path: "/till/:date/z.pdf",
      tag: "payments",
      summary: "The day's Z report as a PDF: expected, counted and variance per tender, counts, cash by employee, the close",
      access: managers,
      params: TillParams,
      query: TillQuery,
      raw: true,
      handler: async ({ caller, params, query }) => {
        const day = await payments.tillDay(caller, params.date, query.agent);
        const { pdf, filename } = await zReportPdf(day, zShopName(day, caller));
        return pdfResponse(pdf, filename, false, SECURITY_HEADERS);
      },
    }),
    route({
      method: "POST",
      path: "/till/:date/close",
      response: TillDay,
      tag: "payments",
      summary: "Closes a day's drawer with the counted amounts; a second close answers 409",
      access: managers,
      params: TillParams,
      query: TillQuery,
      body: TillClose,
      idempotent: true,
      handler: ({ caller, params, query, body }) => payments.closeTill(caller, params.date, body, query.agent),
    }),
    route({
      method: "POST",
      path: "/till/:date/reopen",
      response: TillDay,
      tag: "payments",
      summary: "Reopens a closed day (admins; audited)",
      access: { roles: ["admin"] },
      params: TillParams,
      query: TillQuery,
      idempotent: true,
      handler: ({ caller, params, query }) => payments.reopenTill(caller, params.date, query.agent),
    }),
  ];
}
