// What other modules may read of employees (issue 23: a module's tables are its own):
// scheduling reads a driver's shop and localities for their run through this.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { employees } from "../../../db/schema";

export type DriverRecord = Pick<typeof employees.$inferSelect, "id" | "full_name" | "agent_id" | "role" | "localities">;

/** An employee as a driver's run needs them: their shop, role and the localities they drive. */
export async function driverRecord(q: Pick<Db, "select">, id: number): Promise<DriverRecord | undefined> {
  const [d] = await q
    .select({ id: employees.id, full_name: employees.full_name, agent_id: employees.agent_id, role: employees.role, localities: employees.localities })
    .from(employees)
    .where(eq(employees.id, id));
  return d;
}

/** Whether any employee (archived ones too) belongs to this agent: agents archives it then instead of removing it. */
export async function namesAgent(q: Pick<Db, "select">, agentId: number): Promise<boolean> {
  const [r] = await q.select({ one: employees.agent_id }).from(employees).where(eq(employees.agent_id, agentId)).limit(1);
  return r !== undefined;
}

/** The shop an employee works for (employees never move to another): a payment's drawer is that shop's. */
export async function employeeShop(q: Pick<Db, "select">, id: number): Promise<number | null> {
  const [r] = await q.select({ agent_id: employees.agent_id }).from(employees).where(eq(employees.id, id));
  return r?.agent_id ?? null;
}
