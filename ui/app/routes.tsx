import { PrintersScreen } from "../features/printing/PrintersScreen";
import type { ComponentType } from "react";
import * as A from "../features/accounts";
import * as C from "../features/catalogue";
import * as Chain from "../features/chain";
import { BoxScreen } from "../features/box";
import { Home } from "../features/home/Home";
import * as M from "../features/messaging";
import * as P from "../features/people";
import { PlacesScreen } from "../features/places/PlacesScreen";
import { ReportsScreen } from "../features/reporting/ReportsScreen";
import { ReferenceScreen } from "../features/reference";
import { JournalScreen } from "../features/books/JournalScreen";
import * as T from "../features/tickets";
import * as S from "../features/scan";
import * as W from "../features/scheduling";
import { ScannersScreen } from "../features/scanners/ScannersScreen";
import { LinkScreen } from "../features/hqlink";
import { EndOfDay } from "../features/till/EndOfDay";
import { ImportScreen } from "../features/import";
import { BookingsScreen } from "../features/bookings";
import type { Access } from "./access";

export interface RouteDef {
  path: string;
  title: string;
  access: Access;
  component: ComponentType<{ params: Record<string, string | undefined> }>;
  /** Where the header's back button goes. */
  back?: string;
}

/**
 * Every route of spec §2, with the access rules of spec §6: a driver typing /agents lands
 * on /home.
 */
export const ROUTES: RouteDef[] = [
  { path: "/home", title: "Home", access: "all", component: Home },
  { path: "/agents", title: "Agents", access: "admin", component: P.AgentsList, back: "/home" },
  { path: "/agents/:id", title: "Agent", access: "admin", component: P.AgentDetail, back: "/agents" },
  { path: "/employees", title: "Employees", access: "admin", component: P.EmployeesList, back: "/home" },
  { path: "/employees/:id", title: "Employee", access: "admin", component: P.EmployeeDetail, back: "/employees" },
  { path: "/customers", title: "Customers", access: "all", component: P.CustomersList, back: "/home" },
  { path: "/customers/:id", title: "Customer", access: "all", component: P.CustomerDetail, back: "/customers" },
  { path: "/customers/:id/new-ticket/:ticketID", title: "Ticket", access: "all", component: T.TicketEdit, back: "/home" },
  { path: "/tickets", title: "Tickets", access: "all", component: T.TicketsList, back: "/home" },
  { path: "/tickets/:id", title: "Ticket", access: "all", component: T.TicketView, back: "/tickets" },
  { path: "/actions", title: "Actions", access: "admin", component: C.ActionsList, back: "/home" },
  { path: "/actions/:id", title: "Action", access: "admin", component: C.ActionDetail, back: "/actions" },
  { path: "/garments", title: "Garments", access: "admin", component: C.GarmentsList, back: "/home" },
  { path: "/garments/:id", title: "Garment category", access: "admin", component: C.CategoryDetail, back: "/garments" },
  { path: "/garmentsSubCategory/:id", title: "Garment", access: "admin", component: C.SubCategoryDetail, back: "/garments" },
  { path: "/actionGarmentSubCategory/:id", title: "Action price", access: "admin", component: C.PriceDetail, back: "/garments" },
  { path: "/actionGarmentSubCategories/:id", title: "Action price", access: "admin", component: C.PriceDetail, back: "/garments" },
  { path: "/modifiers", title: "Modifiers", access: "admin", component: C.ModifiersList, back: "/home" },
  { path: "/modifiers/:id", title: "Modifier", access: "admin", component: C.ModifierDetail, back: "/modifiers" },
  { path: "/configuration", title: "Configuration", access: "admin", component: C.ConfigurationMenu, back: "/home" },
  { path: "/configuration/:id", title: "Workload configuration", access: "admin", component: W.WorkloadDetail, back: "/configuration" },
  { path: "/configWorkLoad", title: "Workload", access: "admin", component: W.WorkloadGrid, back: "/configuration" },
  { path: "/configPickupDeliveries", title: "Pickup & delivery", access: "admin", component: W.PickupDeliveriesScreen, back: "/configuration" },
  { path: "/quickgarments", title: "Quick prices", access: "admin", component: C.QuickGarments, back: "/configuration" },
  // Not in the spec's list: where admins maintain localities, streets and preferences (README).
  { path: "/configPlaces", title: "Places & preferences", access: "admin", component: PlacesScreen, back: "/configuration" },
  // Not in the spec's list: the barcode guns wired to the box (issue 6, README).
  { path: "/configScanners", title: "Barcode guns", access: "admin", component: ScannersScreen, back: "/configuration" },
  { path: "/configPrinters", title: "Printers", access: "admin", component: PrintersScreen, back: "/configuration" },
  // Not in the spec's list: where this box streams its database to HQ (issue 15, README).
  { path: "/hqlink", title: "Link to HQ", access: "admin", component: LinkScreen, back: "/configuration" },
  { path: "/configReference", title: "Reference data", access: "admin", component: ReferenceScreen, back: "/configuration" },
  // Not in the spec's list: the accountant's journal and its account codes (issue 34); HQ staff.
  { path: "/configJournal", title: "Accountant's journal", access: "hqStaff", component: JournalScreen, back: "/configuration" },
  // Not in the spec's list: moving in from the system in use today (issue 26, README); HQ staff as the server.
  { path: "/configImport", title: "Import", access: "hqStaff", component: ImportScreen, back: "/configuration" },
  // Not in the spec's list: the box's health panel (issue 16, README).
  { path: "/box", title: "The box", access: "admin", component: BoxScreen, back: "/configuration" },
  { path: "/messaging", title: "Messaging", access: "admin", component: M.MessagingScreen, back: "/configuration" },
  // Not in the spec's list: where messages leave the shop, and the status message texts (issue 14, README).
  { path: "/messaging/settings", title: "Messaging settings", access: "admin", component: M.SettingsScreen, back: "/messaging" },
  { path: "/messaging/templates", title: "Status messages", access: "admin", component: M.TemplatesScreen, back: "/messaging" },
  // Not in the spec's list: replies to pickup reminders and other texts back (issue 35).
  { path: "/messaging/inbox", title: "Inbox", access: "notDriver", component: M.InboxScreen, back: "/home" },
  // Not in the spec's list: business accounts, their invoices, statements and the aged report (issue 34).
  { path: "/accounts", title: "Accounts", access: "managers", component: A.AccountsScreen, back: "/home" },
  { path: "/accounts/aged", title: "Aged receivables", access: "managers", component: A.AgedScreen, back: "/accounts" },
  { path: "/accounts/:id", title: "Account", access: "managers", component: A.AccountScreen, back: "/accounts" },
  { path: "/invoices/:id", title: "Invoice", access: "managers", component: A.InvoiceScreen, back: "/accounts" },
  { path: "/reporting", title: "Reporting", access: "admin", component: ReportsScreen, back: "/" },
  // HQ mode (issue 15): head quarters' view of every site's copy; the server allows HQ staff only.
  { path: "/sites", title: "Sites", access: "hqStaff", component: Chain.SitesScreen, back: "/home" },
  { path: "/sites/reports", title: "Chain reports", access: "hqStaff", component: Chain.ChainReportsScreen, back: "/sites" },
  { path: "/tracking", title: "Tracking", access: "all", component: S.TrackingScreen, back: "/home" },
  { path: "/tracking/:id", title: "Tracking", access: "all", component: S.TrackingScreen, back: "/home" },
  // Not in the spec's list: where bags wait, and the items nobody collected (issue 25, README).
  { path: "/racks", title: "Racks", access: "all", component: S.RacksScreen, back: "/tracking" },
  { path: "/unclaimed", title: "Unclaimed", access: "notDriver", component: S.UnclaimedScreen, back: "/tracking" },
  { path: "/scheduling", title: "Scheduler", access: "scheduler", component: W.SchedulerScreen, back: "/home" },
  // Issue 35: online bookings, as the server's GET /bookings/ (drivers excluded).
  { path: "/bookings", title: "Online bookings", access: "notDriver", component: BookingsScreen, back: "/scheduling" },
  { path: "/express", title: "Express", access: "notDriver", component: S.ExpressScreen, back: "/home" },
  // Not in the spec's list: the drawer's end of day (issue 24, README).
  { path: "/till", title: "End of day", access: "managers", component: EndOfDay, back: "/home" },
  { path: "/state-logs", title: "State Logs", access: "notDriver", component: S.StateLogsScreen, back: "/home" },
];
