import { useSignals } from "@preact/signals-react/runtime";
import { Link } from "wouter";
import { allowed, useHqAgent } from "../../app/access";
import { agentToken, employee, employeeToken } from "../../lib/session";
import { ReferenceVersion } from "../reference";
import { WorkloadList } from "../scheduling";

/** Spec §2: the configuration menu, and the workload settings listed by month. */
const TILES = [
  { to: "/configWorkLoad", label: "Workload", initials: "W", color: "#475569" },
  { to: "/configPickupDeliveries", label: "Pickup & delivery", initials: "PD", color: "#0e7490" },
  { to: "/quickgarments", label: "Quick prices", initials: "QP", color: "#15803d" },
  { to: "/messaging", label: "Messaging", initials: "M", color: "#be185d" },
  { to: "/configPlaces", label: "Places & preferences", initials: "PP", color: "#7c3aed" },
  { to: "/configScanners", label: "Barcode guns", initials: "BG", color: "#b45309" },
  { to: "/configPrinters", label: "Printers", initials: "PR", color: "#0f766e" },
  { to: "/box", label: "The box", initials: "B", color: "#b91c1c" },
  { to: "/setup-tablet", label: "Set up a tablet", initials: "T", color: "#0f3d5e" },
  { to: "/configReference", label: "Reference data", initials: "RD", color: "#1d4ed8" },
  { to: "/hqlink", label: "Link to HQ", initials: "HQ", color: "#334155" },
];

/** Moving in (issue 26): HQ staff only, as the server's /import/ routes. */
const IMPORT_TILE = { to: "/configImport", label: "Import", initials: "IM", color: "#9a3412" };

export function ConfigurationMenu() {
  useSignals();
  const tiles = allowed("hqStaff", employee.value, useHqAgent()) ? [...TILES, IMPORT_TILE] : TILES;
  // The price list opens in a new window, which sends no header: the tokens go in the query (spec §6).
  const priceList = `/api/v1/garmentSubCategories/priceList?Employee=${encodeURIComponent(employeeToken.value ?? "")}&Agent=${encodeURIComponent(agentToken.value ?? "")}&preview=true`;
  return (
    <div className="stack">
      <nav className="tiles" aria-label="Configuration">
        {tiles.map((t) => (
          <Link key={t.to} href={t.to} className="tile">
            <span className="tile-icon" aria-hidden="true" style={{ background: t.color }}>
              {t.initials}
            </span>
            <span className="tile-label">{t.label}</span>
          </Link>
        ))}
        <a className="tile" href={priceList} target="_blank" rel="noopener">
          <span className="tile-icon" aria-hidden="true" style={{ background: "#4338ca" }}>
            PL
          </span>
          <span className="tile-label">Price list</span>
        </a>
      </nav>
      <ReferenceVersion />
      <WorkloadList />
    </div>
  );
}
