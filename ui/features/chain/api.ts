import type { SiteState } from "../../../appliance/modules/chain/model";
import { api } from "../../lib/api";

/** Quiet: the Sites screen says itself why it could not read them (it asks again every 15 s). */
export const listSites = () => api<SiteState[]>("GET", "/chain/sites", { quiet: true });
export const restoreSite = (site: string) => api<SiteState>("POST", `/chain/sites/${encodeURIComponent(site)}/restore`, { quiet: true });
