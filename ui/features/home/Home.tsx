import { useSignals } from "@preact/signals-react/runtime";
// Named imports only: the bundler keeps just these icons (sideEffects: false), about 4 KB gzipped.
import {
  Building2,
  ChartColumn,
  ClipboardList,
  ContactRound,
  History,
  LogOut,
  type LucideIcon,
  Network,
  ScanLine,
  Settings,
  Shirt,
  Tags,
  Ticket,
  Truck,
  UserCog,
  Wallet,
  BookUser,
  WashingMachine,
  Zap,
} from "lucide-react";
import { Link } from "wouter";
import { apiDate } from "../../../appliance/domain/format";
import { weekOf } from "../../../appliance/domain/schedule";
import { type Access, allowed, useAgentIsHq } from "../../app/access";
import { employee } from "../../lib/session";
import { logoutEmployee } from "../auth/actions";
import { BoxWarning } from "../box";
import { useBoxMode } from "../chain/state";
import { Statistics } from "./Statistics";
import pkg from "../../../package.json" with { type: "json" };

/** Spec §2 Home tiles with §6's visibility; an SVG icon each (the same on every tablet, fonts or not). */
export const TILES: { label: string; to: string; access: Access; color: string; icon: LucideIcon }[] = [
  { label: "Agents", to: "/agents", access: "admin", color: "#6d28d9", icon: Building2 },
  { label: "Employees", to: "/employees", access: "admin", color: "#7c3aed", icon: UserCog },
  { label: "Customers", to: "/customers", access: "all", color: "#1b6ca8", icon: ContactRound },
  { label: "Tickets", to: "/tickets", access: "all", color: "#0e7490", icon: Ticket },
  { label: "Actions", to: "/actions", access: "admin", color: "#0f766e", icon: WashingMachine },
  { label: "Garments", to: "/garments", access: "admin", color: "#15803d", icon: Shirt },
  { label: "Modifiers", to: "/modifiers", access: "admin", color: "#a16207", icon: Tags },
  { label: "Configuration", to: "/configuration", access: "admin", color: "#475569", icon: Settings },
  { label: "Tracking", to: "/tracking", access: "all", color: "#b45309", icon: ScanLine },
  { label: "Scheduler", to: "/scheduling", access: "scheduler", color: "#be185d", icon: Truck },
  { label: "Reporting", to: "/reporting", access: "admin", color: "#4338ca", icon: ChartColumn },
  { label: "Express", to: "/express", access: "notDriver", color: "#dc2626", icon: Zap },
  { label: "State Logs", to: "/state-logs", access: "notDriver", color: "#334155", icon: History },
  { label: "End of day", to: "/till", access: "managers", color: "#166534", icon: Wallet },
  { label: "Accounts", to: "/accounts", access: "managers", color: "#9333ea", icon: BookUser },
];

/** The scheduler's Driver view on today (the shop's day). */
function todaysRun() {
  const day = apiDate(new Date());
  const w = weekOf(day);
  return `/scheduling?year=${w.year}&week=${w.week}&day=${day}&view=driver`;
}

function TileIcon({ icon: Icon, color }: { icon: LucideIcon; color: string }) {
  return (
    <span className="tile-icon" aria-hidden="true" style={{ background: color }}>
      <Icon size={30} strokeWidth={2} />
    </span>
  );
}

export function Home() {
  useSignals();
  const e = employee.value;
  const hqAgent = useAgentIsHq();
  const tiles = TILES.filter((t) => allowed(t.access, e, hqAgent));
  // Head quarters' box in HQ mode (issue 15): every site's copy, for HQ staff.
  const sitesTile = useBoxMode() === "hq" && allowed("hqStaff", e, hqAgent);
  // Issue 25: a driver reaches today's run in one tap, first on the screen.
  const runTile = e?.role === "driver" && allowed("scheduler", e, hqAgent);
  return (
    <section className="home">
      {e?.role === "admin" && <BoxWarning />}
      <nav className="tiles" aria-label="Menu">
        {runTile && (
          <Link href={todaysRun()} className="tile">
            <TileIcon icon={ClipboardList} color="#be185d" />
            <span className="tile-label">Today's run</span>
          </Link>
        )}
        {tiles.map((t) => (
          <Link key={t.to} href={t.to} className="tile">
            <TileIcon icon={t.icon} color={t.color} />
            <span className="tile-label">{t.label}</span>
          </Link>
        ))}
        {sitesTile && (
          <Link href="/sites" className="tile">
            <TileIcon icon={Network} color="#0f5132" />
            <span className="tile-label">Sites</span>
          </Link>
        )}
        {e && (
          <button type="button" className="tile tile-logout" onClick={() => logoutEmployee()}>
            <TileIcon icon={LogOut} color="#c0392b" />
            <span className="tile-label">Logout</span>
          </button>
        )}
      </nav>
      {e?.role === "admin" && <Statistics />}
      <p className="version">v{pkg.version}</p>
    </section>
  );
}
