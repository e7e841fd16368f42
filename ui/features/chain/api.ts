import type { SiteState } from "../../../appliance/modules/chain/model";
import { api } from "../../lib/api";

export const listSites = () => api<SiteState[]>("GET", "/chain/sites");
export const restoreSite = (site: string) => api<SiteState>("POST", `/chain/sites/${encodeURIComponent(site)}/restore`, { quiet: true });
