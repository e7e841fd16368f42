import type { ImportStatusView } from "../../../appliance/modules/import/model";
import { api } from "../../lib/api";

/** Moving in (issue 26): the HQ screen's import, over POST/GET /import/ (HQ staff). */
export interface ImportStartBody {
  from: string;
  user: string;
  password: string;
  pin: string;
  dry_run: boolean;
}
export const importStatus = () => api<ImportStatusView>("GET", "/import/", { quiet: true });
export const startImport = (body: ImportStartBody) => api<ImportStatusView>("POST", "/import/", { body });
export const cancelImport = () => api<ImportStatusView>("POST", "/import/cancel");
