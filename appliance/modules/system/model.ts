// The system module's contract: the ready check and first-run setup.
import { z } from "zod";
import { BOX_MODES } from "../../domain/sites";
import { Pin } from "../auth/model";
import { LinkHealth } from "../hqlink/model";

export const Health = z.object({
  version: z.string(),
  database: z.literal("ok"),
  setup_required: z.boolean(),
  link: LinkHealth.describe("Replication to HQ: state, lag, last error (the home screen warns when lagging or down)"),
  time_zone: z.string().describe("The shop's time zone (IRONBOX_TIME_ZONE, default Europe/Malta): every day and time the UI shows is in it"),
  mode: z.enum(BOX_MODES).describe('"hq": head quarters\' box, which also keeps a copy of every site (the Sites screen); else "shop"'),
});
export type Health = z.infer<typeof Health>;

export const SetupBody = z.object({
  setup_code: z.string().trim().min(1).max(64).describe("The one-time code from the box's console or <data dir>/setup-code"),
  agent_name: z.string().trim().min(1).max(100),
  user_name: z.string().trim().min(1).max(100),
  password: z.string().min(8).max(200),
  full_name: z.string().trim().min(1).max(100),
  pin: Pin,
});
export type SetupBody = z.input<typeof SetupBody>;
