import type { SiteState } from "../../../appliance/modules/chain/model";

/** A site copy's version as the Sites screen shows it: "schema 8 · release 0.16.0", or "–" before the first restore. */
export function versionText(schema: SiteState["schema"]): string {
  if (!schema) return "–";
  return [`schema ${schema.version ?? "none"}`, schema.release ? `release ${schema.release}` : null].filter(Boolean).join(" · ");
}
