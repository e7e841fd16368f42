import type { LinkCheck, LinkSettingsBody, LinkState } from "../../../appliance/modules/hqlink/model";
import { api } from "../../lib/api";

/** The link to HQ (admins). */
export const linkState = (quiet = false) => api<LinkState>("GET", "/hqlink", { quiet });
export const saveLink = (body: LinkSettingsBody) => api<LinkState>("PUT", "/hqlink", { body });
export const checkLink = () => api<LinkCheck>("POST", "/hqlink/check");
