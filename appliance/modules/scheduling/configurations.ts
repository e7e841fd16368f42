/**
 * The plant's monthly workload configurations (one per month and action) and the vans'
 * pickup/delivery capacity settings: the screens that edit them, audited.
 */
import { and, asc, eq, ne, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { configurations, pickupDeliveries } from "../../../db/schema";
import { MONTHS, type MonthName, formatAmounts, parseAmounts, parseLocalityIds } from "../../domain/schedule";
import type { Clock } from "../../platform/clock";
import { conflict, notFound, unprocessable } from "../../platform/errors";
import { audit, changes } from "../audit/audit";
import type { EmployeeCaller } from "../auth/caller";
import { actionNames } from "../catalogue/reads";
import { unknownLocalityIds } from "../places/reads";

export interface ConfigurationInput {
  month: MonthName;
  action_id: number;
  amounts: number[];
}
export interface PickupDeliveryRecord {
  season: "PEAK" | "OFFSEASON";
  from?: string | null;
  to?: string | null;
  day_of_week: number;
  quantity: number;
  localities: number[];
}

type Conf = { id: number; month: string; action_id: number; action: string; amounts: string };
const confOut = (c: Conf) => ({ ...c, month: c.month as MonthName, per_day: parseAmounts(c.amounts) });

/** Drops the workload configurations of an action the catalogue removes, in its transaction. */
export async function removeActionConfigurations(tx: Pick<Db, "delete">, actionId: number): Promise<void> {
  await tx.delete(configurations).where(eq(configurations.action_id, actionId));
}

export function createConfigurationOps({ db, clock }: { db: Db; clock: Clock }) {
  // ------------------------------------------------------------ configurations

  /**
   * Configurations with their action's name (the catalogue's): the one read both the list and
   * a single one use. One whose action the catalogue no longer has is not listed.
   */
  async function configurationRows(q: Pick<Db, "select"> = db, where?: SQL): Promise<Conf[]> {
    const rows = await q
      .select({ id: configurations.id, month: configurations.month, action_id: configurations.action_id, amounts: configurations.amounts })
      .from(configurations)
      .where(where);
    const name = new Map(
      (
        await actionNames(
          q,
          rows.map((r) => r.action_id),
        )
      ).map((a) => [a.id, a.name]),
    );
    return rows.flatMap((r) =>
      name.has(r.action_id) ? [{ id: r.id, month: r.month, action_id: r.action_id, action: name.get(r.action_id)!, amounts: r.amounts }] : [],
    );
  }

  async function getConfiguration(id: number, q: Pick<Db, "select"> = db) {
    const [c] = await configurationRows(q, eq(configurations.id, id));
    if (!c) throw notFound("Configuration");
    return confOut(c);
  }

  /** One configuration per (month, action); the action must exist. */
  async function checkConfiguration(q: Pick<Db, "select">, c: { month: string; action_id: number }, except?: number) {
    if (!(await actionNames(q, [c.action_id])).length) throw unprocessable("action_id: no such action");
    const [dup] = await q
      .select({ id: configurations.id })
      .from(configurations)
      .where(and(eq(configurations.month, c.month), eq(configurations.action_id, c.action_id), except ? ne(configurations.id, except) : undefined));
    if (dup) throw conflict(`${c.month} already has a configuration for this action (#${dup.id}); change that one`);
  }

  async function listPickupDeliveries() {
    const rows = await db.select().from(pickupDeliveries).orderBy(asc(pickupDeliveries.season), asc(pickupDeliveries.day_of_week), asc(pickupDeliveries.id));
    return rows.map((r) => ({ ...r, locality_ids: parseLocalityIds(r.localities) }));
  }

  return {
    // -------------------------------------------------------- configurations
    async listConfigurations() {
      const rows = await configurationRows();
      const monthIndex = (m: string) => MONTHS.indexOf(m as MonthName);
      return rows.map(confOut).sort((a, b) => monthIndex(a.month) - monthIndex(b.month) || a.action.localeCompare(b.action) || a.id - b.id);
    },
    getConfiguration: (id: number) => getConfiguration(id),

    async createConfiguration(caller: EmployeeCaller, input: ConfigurationInput) {
      return db.transaction(async (tx) => {
        await checkConfiguration(tx, input);
        const amounts = formatAmounts(input.amounts);
        const [row] = await tx.insert(configurations).values({ month: input.month, action_id: input.action_id, amounts }).returning({ id: configurations.id });
        await audit(tx, clock.now(), caller, "create", "configuration", row!.id, { month: input.month, action_id: input.action_id, amounts });
        return getConfiguration(row!.id, tx);
      });
    },

    async updateConfiguration(caller: EmployeeCaller, id: number, input: Partial<ConfigurationInput>) {
      return db.transaction(async (tx) => {
        const [before] = await tx.select().from(configurations).where(eq(configurations.id, id));
        if (!before) throw notFound("Configuration");
        const next = {
          month: input.month ?? before.month,
          action_id: input.action_id ?? before.action_id,
          amounts: input.amounts ? formatAmounts(input.amounts) : before.amounts,
        };
        await checkConfiguration(tx, next, id);
        await tx.update(configurations).set(next).where(eq(configurations.id, id));
        await audit(tx, clock.now(), caller, "update", "configuration", id, { changes: changes(before, next) });
        return getConfiguration(id, tx);
      });
    },

    async removeConfiguration(caller: EmployeeCaller, id: number) {
      return db.transaction(async (tx) => {
        const [before] = await tx.select().from(configurations).where(eq(configurations.id, id));
        if (!before) throw notFound("Configuration");
        await tx.delete(configurations).where(eq(configurations.id, id));
        await audit(tx, clock.now(), caller, "delete", "configuration", id, { before });
        return { id };
      });
    },

    // -------------------------------------------------------- pickup/delivery settings
    listPickupDeliveries,

    /** Replaces every setting with the list sent, in one transaction (spec §7: POST of the whole array). */
    async savePickupDeliveries(caller: EmployeeCaller, list: PickupDeliveryRecord[]) {
      const wanted = [...new Set(list.flatMap((s) => s.localities))];
      const missing = await unknownLocalityIds(db, wanted);
      if (missing.length) throw unprocessable(`localities: unknown locality id ${missing.slice(0, 5).join(", ")}`);
      await db.transaction(async (tx) => {
        const before = await tx.select().from(pickupDeliveries);
        await tx.delete(pickupDeliveries);
        if (list.length) {
          await tx.insert(pickupDeliveries).values(
            list.map((s) => ({
              season: s.season,
              from: s.from ?? null,
              to: s.to ?? null,
              day_of_week: s.day_of_week,
              quantity: s.quantity,
              localities: [...new Set(s.localities)].join(";"),
            })),
          );
        }
        await audit(tx, clock.now(), caller, "replace", "pickup_deliveries", null, { before: before.length, after: list.length });
      });
      return listPickupDeliveries();
    },
  };
}
