// The approval module's contract: a manager's PIN carried by a guarded request, and the box settings.
import { z } from "zod";
import { Pin } from "../auth/model";

/**
 * A manager's approval on the spot (issue 11): the manager or admin types their PIN on the
 * employee's tablet and the request carries it. Requests that may need one take it in the
 * body; without it a guarded change answers 403 "Manager approval required: …".
 */
export const Approval = z.object({ pin: Pin }).describe("A manager's or admin's PIN of the same shop, typed on this tablet to approve the change");
export const WithApproval = z.object({ approval: Approval.optional() });

/** Box settings staff need: the discount limit (whole percent). */
export const Settings = z.object({ discount_limit: z.number().int().min(0).max(100) });
export type Settings = z.infer<typeof Settings>;
