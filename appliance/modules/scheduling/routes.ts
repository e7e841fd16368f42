import { z } from "zod";
import { pdfResponse } from "../../../drivers/pdf/document";
import { HQ_STAFF, ROLES, route } from "../../http/route";
import { SECURITY_HEADERS } from "../../http/security";
import { toEuros } from "../../domain/money";
import { IdParams } from "../../domain/schemas";
import {
  ActionWorkloadWeek,
  Availability,
  AvailabilityQuery,
  Configuration,
  ConfigurationBody,
  ConfigurationPatch,
  PickupDeliveriesBody,
  PickupDelivery,
  Run,
  RunQuery,
  ScheduleQuery,
  ScheduleWeek,
  WeekParams,
  WeeklyStats,
  WorkloadQuery,
} from "./model";
import { runSheetPdf } from "./runSheet";
import type { SchedulingService } from "./service";

/**
 * Spec §6: workload configurations and pickup/delivery settings are chain-wide reference
 * data (admins read them, HQ staff change them); the Scheduler is shown only to users of the
 * head-quarters agent (its admins and drivers); a shop's admin sees its own workload; every role sees
 * this week's load (the ticket view's Process Feedback) and the counter's availability.
 */
const admins = { roles: ["admin"] } as const;
const scheduler = { roles: ["admin", "driver"], hqAgent: true } as const;
const runReaders = { roles: ["admin", "manager", "driver"] } as const;
const tag = "scheduling";

const actionIds = z.object({
  actions: z
    .union([z.coerce.number().int().positive(), z.array(z.coerce.number().int().positive()).max(100)])
    .transform((v) => [v].flat())
    .optional(),
});

/** Cents → euros for the ticket lists and the run (the service speaks cents). */
const ticketEuros = <T extends { total: number; total_paid: number }>(t: T) => ({ ...t, total: toEuros(t.total), total_paid: toEuros(t.total_paid) });
const runEuros = <T extends { stops: { amount_due: number }[] }>(r: T) => ({ ...r, stops: r.stops.map((s) => ({ ...s, amount_due: toEuros(s.amount_due) })) });

export function schedulingRoutes(s: SchedulingService) {
  return [
    route({
      method: "GET",
      path: "/configurations/",
      tag,
      summary: "Workload configurations by month",
      access: admins,
      response: z.array(Configuration),
      handler: () => s.listConfigurations(),
    }),
    route({
      method: "GET",
      path: "/configurations/:id",
      tag,
      summary: "One workload configuration",
      access: admins,
      params: IdParams,
      response: Configuration,
      handler: ({ params }) => s.getConfiguration(params.id),
    }),
    route({
      method: "POST",
      path: "/configurations/",
      tag,
      summary: "Creates a workload configuration (one per month and action; negative amounts become 0)",
      access: HQ_STAFF,
      hqOwned: true,
      body: ConfigurationBody,
      idempotent: true,
      response: Configuration,
      handler: ({ caller, body }) => s.createConfiguration(caller, body),
    }),
    route({
      method: "PUT",
      path: "/configurations/:id",
      tag,
      summary: "Changes a workload configuration",
      access: HQ_STAFF,
      hqOwned: true,
      params: IdParams,
      body: ConfigurationPatch,
      response: Configuration,
      handler: ({ caller, params, body }) => s.updateConfiguration(caller, params.id, body),
    }),
    route({
      method: "DELETE",
      path: "/configurations/:id",
      tag,
      summary: "Removes a workload configuration",
      access: HQ_STAFF,
      hqOwned: true,
      params: IdParams,
      response: z.object({ id: z.number() }),
      handler: ({ caller, params }) => s.removeConfiguration(caller, params.id),
    }),

    route({
      method: "GET",
      path: "/pickupDeliveries/",
      tag,
      summary: "Pickup/delivery capacity settings",
      access: admins,
      response: z.array(PickupDelivery),
      handler: () => s.listPickupDeliveries(),
    }),
    route({
      method: "POST",
      path: "/pickupDeliveries/",
      tag,
      summary: "Replaces every pickup/delivery setting with the list sent (one transaction)",
      access: HQ_STAFF,
      hqOwned: true,
      body: PickupDeliveriesBody,
      response: z.array(PickupDelivery),
      handler: ({ caller, body }) => s.savePickupDeliveries(caller, body),
    }),

    route({
      method: "GET",
      path: "/statistics/schedule/week/:week/year/:year",
      tag,
      summary:
        "The scheduler's week: each day's capacity, booked pickups and deliveries per locality, and tickets (limit a day; date and type narrow the list)",
      access: scheduler,
      params: WeekParams,
      query: ScheduleQuery,
      response: ScheduleWeek,
      handler: async ({ caller, params, query }) =>
        (await s.scheduleWeek(caller, params.year, params.week, query)).map((d) => ({ ...d, tickets: d.tickets.map(ticketEuros) })),
    }),
    route({
      method: "GET",
      path: "/statistics/actionWorkLoad/week/:week/year/:year",
      tag,
      summary: "The plant's load per action and day of a week against the month's configuration (items by process date)",
      access: admins,
      params: WeekParams,
      query: WorkloadQuery,
      response: ActionWorkloadWeek,
      handler: ({ caller, params, query }) => s.actionWorkload(caller, params.year, params.week, query.limit),
    }),
    route({
      method: "GET",
      path: "/weeklyStats/thisWeek",
      tag,
      summary: "This week's plant load per action and day (Process Feedback); optionally only some actions",
      access: { roles: ROLES },
      query: actionIds,
      response: WeeklyStats,
      handler: ({ query }) => s.thisWeek(query.actions),
    }),

    route({
      method: "GET",
      path: "/schedule/availability",
      tag,
      summary: "A locality's pickup/delivery room per day and the proposed date with room and plant capacity for the actions",
      access: { roles: ROLES },
      query: AvailabilityQuery,
      response: Availability,
      handler: ({ query }) => s.availability(query),
    }),
    route({
      method: "GET",
      path: "/schedule/run",
      tag,
      summary: "A driver's stops for a day in the driver's localities, by locality and street (driver: the caller by default)",
      access: runReaders,
      query: RunQuery,
      response: Run,
      handler: async ({ caller, query }) => runEuros(await s.run(caller, query.date, query.driver)),
    }),
    route({
      method: "GET",
      path: "/schedule/run/pdf",
      tag,
      summary: "A driver's run as a PDF run sheet (preview=true shows it inline)",
      access: runReaders,
      query: RunQuery.extend({ preview: z.enum(["true", "false"]).optional() }),
      raw: true,
      handler: async ({ caller, query }) => {
        const { pdf, filename } = await runSheetPdf(await s.run(caller, query.date, query.driver));
        return pdfResponse(pdf, filename, query.preview === "true", SECURITY_HEADERS);
      },
    }),
  ];
}
