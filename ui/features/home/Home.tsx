import { useSignals } from "@preact/signals-react/runtime";
import { Link } from "wouter";
import { type Access, allowed, useAgentIsHq } from "../../app/access";
import { employee } from "../../lib/session";
import { logoutEmployee } from "../auth/actions";
import { BoxWarning } from "../box";
import { useBoxMode } from "../chain/state";
import { Statistics } from "./Statistics";
import pkg from "../../../package.json" with { type: "json" };

/** Spec §2 Home tiles with §6's visibility. */
export const TILES: { label: string; to: string; access: Access; color: string }[] = [
  { label: "Agents", to: "/agents", access: "admin", color: "#6d28d9" },
  { label: "Employees", to: "/employees", access: "admin", color: "#7c3aed" },
  { label: "Customers", to: "/customers", access: "all", color: "#1b6ca8" },
  { label: "Tickets", to: "/tickets", access: "all", color: "#0e7490" },
  { label: "Actions", to: "/actions", access: "admin", color: "#0f766e" },
  { label: "Garments", to: "/garments", access: "admin", color: "#15803d" },
  { label: "Modifiers", to: "/modifiers", access: "admin", color: "#a16207" },
  { label: "Configuration", to: "/configuration", access: "admin", color: "#475569" },
  { label: "Tracking", to: "/tracking", access: "all", color: "#b45309" },
  { label: "Scheduler", to: "/scheduling", access: "scheduler", color: "#be185d" },
  { label: "Reporting", to: "/reporting", access: "admin", color: "#4338ca" },
  { label: "Express", to: "/express", access: "notDriver", color: "#dc2626" },
  { label: "State Logs", to: "/state-logs", access: "notDriver", color: "#334155" },
  { label: "End of day", to: "/till", access: "managers", color: "#166534" },
];

/** Badges instead of emoji: they look the same on every tablet, fonts or not. */
const initials = (label: string) =>
  label
    .split(" ")
    .map((w) => w[0])
    .join("")
    .slice(0, 2);

export function Home() {
  useSignals();
  const e = employee.value;
  const hqAgent = useAgentIsHq();
  const tiles = TILES.filter((t) => allowed(t.access, e, hqAgent));
  // Head quarters' box in HQ mode (issue 15): every site's copy, for HQ staff.
  const sitesTile = useBoxMode() === "hq" && allowed("hqStaff", e, hqAgent);
  return (
    <section className="home">
      {e?.role === "admin" && <BoxWarning />}
      <nav className="tiles" aria-label="Menu">
        {tiles.map((t) => (
          <Link key={t.to} href={t.to} className="tile">
            <span className="tile-icon" aria-hidden="true" style={{ background: t.color }}>
              {initials(t.label)}
            </span>
            <span className="tile-label">{t.label}</span>
          </Link>
        ))}
        {sitesTile && (
          <Link href="/sites" className="tile">
            <span className="tile-icon" aria-hidden="true" style={{ background: "#0f5132" }}>
              Si
            </span>
            <span className="tile-label">Sites</span>
          </Link>
        )}
        {e && (
          <button type="button" className="tile tile-logout" onClick={() => logoutEmployee()}>
            <span className="tile-icon" aria-hidden="true" style={{ background: "#c0392b" }}>
              →
            </span>
            <span className="tile-label">Logout</span>
          </button>
        )}
      </nav>
      {e?.role === "admin" && <Statistics />}
      <p className="version">v{pkg.version}</p>
    </section>
  );
}
