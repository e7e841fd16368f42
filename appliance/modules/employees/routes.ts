import { z } from "zod";
import { route } from "../../http/route";
import { toEuros } from "../../domain/money";
import { ArchivedQuery, IdParams } from "../../domain/schemas";
import { ClearOwingsQuery, Employee, EmployeeBody, EmployeeDetail, EmployeeName, LocalityToggleBody, RestoreBody } from "./model";
import type { EmployeeRecord, EmployeeService } from "./service";

/** The route edge: the service's cents become the API's euros. */
function inEuros<T extends EmployeeRecord>(e: T) {
  return {
    ...e,
    accumulated: toEuros(e.accumulated),
    pending: toEuros(e.pending),
    ...(e.employee_owings ? { employee_owings: e.employee_owings.map((o) => ({ ...o, amount: toEuros(o.amount), received: toEuros(o.received) })) } : {}),
  };
}

const admin = { roles: ["admin"] } as const;
/** Spec §6: State Logs are hidden only from drivers. */
const stateLogReaders = { roles: ["admin", "manager", "employee"] } as const;

export function employeeRoutes(employees: EmployeeService) {
  return [
    route({
      method: "GET",
      path: "/employees/",
      tag: "employees",
      summary: "Employees this caller may see; ?archived=true lists the archived ones instead",
      access: admin,
      query: ArchivedQuery,
      response: z.array(Employee),
      handler: async ({ caller, query }) => (await employees.list(caller, query.archived === "true")).map(inEuros),
    }),
    route({
      method: "GET",
      path: "/employees/names",
      tag: "employees",
      summary: "Id and name of the shop's employees (HQ: every shop's), for the State Logs employee filter",
      access: stateLogReaders,
      response: z.array(EmployeeName),
      handler: ({ caller }) => employees.names(caller),
    }),
    route({
      method: "GET",
      path: "/employees/:id",
      tag: "employees",
      summary: "One employee",
      access: admin,
      params: IdParams,
      response: EmployeeDetail,
      handler: async ({ caller, params }) => inEuros(await employees.get(caller, params.id)),
    }),
    route({
      method: "POST",
      path: "/employees/",
      tag: "employees",
      summary: "Creates an employee with a PIN unique within the agent",
      access: admin,
      body: EmployeeBody.required({ pin: true }),
      idempotent: true,
      response: Employee,
      handler: async ({ caller, body }) => inEuros(await employees.create(caller, body)),
    }),
    route({
      method: "PUT",
      path: "/employees/:id",
      tag: "employees",
      summary: "Updates an employee; a new PIN or a disabled login ends their sessions",
      access: admin,
      params: IdParams,
      body: EmployeeBody.partial(),
      response: Employee,
      handler: async ({ caller, params, body }) => inEuros(await employees.update(caller, params.id, body)),
    }),
    route({
      method: "PUT",
      path: "/employees/localities/:id",
      tag: "employees",
      summary: "Toggles localities: ids present are removed, others added",
      access: admin,
      params: IdParams,
      body: LocalityToggleBody,
      response: Employee,
      handler: async ({ caller, params, body }) => inEuros(await employees.toggleLocalities(caller, params.id, Array.isArray(body) ? body : body.localities)),
    }),
    route({
      method: "PUT",
      path: "/employees/clearOwings/:id",
      tag: "employees",
      summary: "Settles the employee's open owings; ?close=true also closes the period",
      access: admin,
      // Moves money (owings settled into accumulated): a retry that lost the first answer must
      // not settle an owing recorded in between.
      idempotent: true,
      params: IdParams,
      query: ClearOwingsQuery,
      response: z.literal(true),
      handler: ({ caller, params, query }) => employees.clearOwings(caller, params.id, query.close === "true"),
    }),
    route({
      method: "DELETE",
      path: "/employees/:id",
      tag: "employees",
      summary: "Removes an employee without history; one with history is archived (kept on record, hidden, logged out, PIN freed)",
      access: admin,
      params: IdParams,
      response: z.literal(true),
      handler: ({ caller, params }) => employees.remove(caller, params.id),
    }),
    route({
      method: "PUT",
      path: "/employees/restore/:id",
      tag: "employees",
      summary: "Restores an archived employee; their old PIN was freed, so send a new one (or set it later)",
      access: admin,
      params: IdParams,
      body: RestoreBody,
      response: Employee,
      handler: async ({ caller, params, body }) => inEuros(await employees.restore(caller, params.id, body.pin)),
    }),
  ];
}
