import { ReportSections } from "../reporting/ReportsScreen";

export { SitesScreen } from "./SitesScreen";

/** The four reports over every site's copy at head quarters (HQ mode). */
export const ChainReportsScreen = () => <ReportSections chain />;
