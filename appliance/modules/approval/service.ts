import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { boxSettings } from "../../../db/schema";
import { forbidden } from "../../platform/errors";
import type { EmployeeCaller, Role } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { audit } from "../audit/audit";

/** The discount limit (whole percent) above which roles below manager need an approval. */
export const DISCOUNT_LIMIT_KEY = "discount_limit";
export const DEFAULT_DISCOUNT_LIMIT = 10;

/**
 * The UI recognises these 403s by their first words: "required" opens the approval dialog,
 * "refused" keeps it open with the reason.
 */
export const APPROVAL_REQUIRED = "Manager approval required";
export const APPROVAL_REFUSED = "Manager approval refused";

/** Roles that act on their own session; the others need a manager's PIN for the guarded changes. */
const ACTS_ALONE: readonly Role[] = ["admin", "manager"];

export interface Approver {
  id: number;
  full_name: string;
  role: Role;
}
/** What a request brings for an approval: the PIN typed on the tablet, and which tablet. */
export interface ApprovalInput {
  pin?: string;
  client: string;
}
/** Auth's check of an approver's PIN: counted toward the shop's PIN lock like a login. */
export type VerifyApproverPin = (agentId: number, pin: string, client: string) => Promise<Approver | null>;

export function createApprovalService({ db, clock, verifyApproverPin }: { db: Db; clock: Clock; verifyApproverPin: VerifyApproverPin }) {
  async function discountLimit(): Promise<number> {
    const row = await db.query.boxSettings.findFirst({ where: eq(boxSettings.key, DISCOUNT_LIMIT_KEY) });
    const n = row ? Number(row.value) : Number.NaN;
    return Number.isFinite(n) ? n : DEFAULT_DISCOUNT_LIMIT;
  }

  /**
   * Allows a guarded change. Managers and admins act alone (null); anyone else needs the PIN
   * of a manager or admin of the same shop, and gets that approver back for the audit row.
   * `what` finishes the 403's sentence: "Manager approval required: <what>".
   */
  async function approve(caller: EmployeeCaller, approval: ApprovalInput, what: string): Promise<Approver | null> {
    if (ACTS_ALONE.includes(caller.employee.role)) return null;
    if (!approval.pin) throw forbidden(`${APPROVAL_REQUIRED}: ${what}`);
    const approver = await verifyApproverPin(caller.agent.id, approval.pin, approval.client);
    if (!approver) throw forbidden(`${APPROVAL_REFUSED}: that PIN is not a manager's or admin's of this shop`);
    return approver;
  }

  return {
    discountLimit,
    approve,

    /** A discount (whole percent) above the limit needs an approval. */
    async approveDiscount(caller: EmployeeCaller, approval: ApprovalInput, percent: number, what: string) {
      const limit = await discountLimit();
      return percent > limit ? approve(caller, approval, `${what} above ${limit} %`) : null;
    },

    settings: async () => ({ discount_limit: await discountLimit() }),

    async saveSettings(caller: EmployeeCaller, input: { discount_limit: number }) {
      const before = await discountLimit();
      const value = String(input.discount_limit);
      await db.transaction(async (tx) => {
        await tx.insert(boxSettings).values({ key: DISCOUNT_LIMIT_KEY, value }).onConflictDoUpdate({ target: boxSettings.key, set: { value } });
        await audit(tx, clock.now(), caller, "update", "settings", null, { discount_limit: { before, after: input.discount_limit } });
      });
      return { discount_limit: input.discount_limit };
    },
  };
}
export type ApprovalService = ReturnType<typeof createApprovalService>;

/** The audit detail that names the approver beside the employee (the row's own employee_id). */
export const approvedBy = (approver: Approver | null) =>
  approver ? { approved_by: { id: approver.id, full_name: approver.full_name, role: approver.role } } : {};
