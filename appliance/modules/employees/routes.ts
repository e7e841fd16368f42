import { z } from "zod";
import { ROLES, route } from "../../http/route";
import { IdParams, text } from "../../domain/schemas";
import { Pin } from "../auth/model";
import type { EmployeeService } from "./service";

const EmployeeBody = z.object({
  agent_id: z.number().int().positive().optional(),
  full_name: text(100).min(1),
  mobile: text(30).optional(),
  landline: text(30).optional(),
  role: z.enum(ROLES),
  pin: Pin.optional(),
  enable_login: z.boolean().optional(),
  hq: z.boolean().optional(),
  localities: text(2000).optional(),
});

const admin = { roles: ["admin"] } as const;

export function employeeRoutes(employees: EmployeeService) {
  return [
    route({ method: "GET", path: "/employees/", tag: "employees", summary: "Employees this caller may see", access: admin, handler: ({ caller }) => employees.list(caller) }),
    route({
      method: "GET",
      path: "/employees/:id",
      tag: "employees",
      summary: "One employee",
      access: admin,
      params: IdParams,
      handler: ({ caller, params }) => employees.get(caller, params.id),
    }),
    route({
      method: "POST",
      path: "/employees/",
      tag: "employees",
      summary: "Creates an employee with a PIN unique within the agent",
      access: admin,
      body: EmployeeBody.required({ pin: true }),
      idempotent: true,
      handler: ({ caller, body }) => employees.create(caller, body),
    }),
    route({
      method: "PUT",
      path: "/employees/:id",
      tag: "employees",
      summary: "Updates an employee; a new PIN or a disabled login ends their sessions",
      access: admin,
      params: IdParams,
      body: EmployeeBody.partial(),
      handler: ({ caller, params, body }) => employees.update(caller, params.id, body),
    }),
    route({
      method: "PUT",
      path: "/employees/localities/:id",
      tag: "employees",
      summary: "Toggles localities: ids present are removed, others added",
      access: admin,
      params: IdParams,
      body: z.union([z.array(z.number().int().positive()).max(500), z.object({ localities: z.array(z.number().int().positive()).max(500) })]),
      handler: ({ caller, params, body }) => employees.toggleLocalities(caller, params.id, Array.isArray(body) ? body : body.localities),
    }),
    route({
      method: "PUT",
      path: "/employees/clearOwings/:id",
      tag: "employees",
      summary: "Settles the employee's open owings; ?close=true also closes the period",
      access: admin,
      params: IdParams,
      query: z.object({ close: z.enum(["true", "false"]).optional() }),
      handler: ({ caller, params, query }) => employees.clearOwings(caller, params.id, query.close === "true"),
    }),
    route({
      method: "DELETE",
      path: "/employees/:id",
      tag: "employees",
      summary: "Removes an employee who has no tickets",
      access: admin,
      params: IdParams,
      handler: ({ caller, params }) => employees.remove(caller, params.id),
    }),
  ];
}
