import { useSignals } from "@preact/signals-react/runtime";
// Named imports only: the bundler keeps just these icons, as on the home tiles (issue 31).
import {
  BookOpen,
  Database,
  Euro,
  FileText,
  Gauge,
  Import,
  MapPin,
  MessageSquare,
  Network,
  Printer,
  ScanBarcode,
  Server,
  TabletSmartphone,
  Truck,
} from "lucide-react";
import { Link } from "wouter";
import { allowed, useHqAgent } from "../../app/access";
import { agentToken, employee, employeeToken } from "../../lib/session";
import { ReferenceVersion } from "../reference";
import { WorkloadList } from "../scheduling";

/** Spec §2: the configuration menu (an SVG icon per tile, like the home's), and the workload settings listed by month. */
const TILES = [
  { to: "/configWorkLoad", label: "Workload", icon: Gauge, color: "#475569" },
  { to: "/configPickupDeliveries", label: "Pickup & delivery", icon: Truck, color: "#0e7490" },
  { to: "/quickgarments", label: "Quick prices", icon: Euro, color: "#15803d" },
  { to: "/messaging", label: "Messaging", icon: MessageSquare, color: "#be185d" },
  { to: "/configPlaces", label: "Places & preferences", icon: MapPin, color: "#7c3aed" },
  { to: "/configScanners", label: "Barcode guns", icon: ScanBarcode, color: "#b45309" },
  { to: "/configPrinters", label: "Printers", icon: Printer, color: "#0f766e" },
  { to: "/box", label: "The box", icon: Server, color: "#b91c1c" },
  { to: "/setup-tablet", label: "Set up a tablet", icon: TabletSmartphone, color: "#0f3d5e" },
  { to: "/configReference", label: "Reference data", icon: Database, color: "#1d4ed8" },
  { to: "/hqlink", label: "Link to HQ", icon: Network, color: "#334155" },
];

/** Moving in (issue 26): HQ staff only, as the server's /import/ routes. */
const IMPORT_TILE = { to: "/configImport", label: "Import", icon: Import, color: "#9a3412" };
/** The accountant's journal (issue 34): HQ staff only, as the server's account codes. */
const JOURNAL_TILE = { to: "/configJournal", label: "Accountant's journal", icon: BookOpen, color: "#166534" };

export function ConfigurationMenu() {
  useSignals();
  const tiles = allowed("hqStaff", employee.value, useHqAgent()) ? [...TILES, IMPORT_TILE, JOURNAL_TILE] : TILES;
  // The price list opens in a new window, which sends no header: the tokens go in the query (spec §6).
  const priceList = `/api/v1/garmentSubCategories/priceList?Employee=${encodeURIComponent(employeeToken.value ?? "")}&Agent=${encodeURIComponent(agentToken.value ?? "")}&preview=true`;
  return (
    <div className="stack">
      <nav className="tiles" aria-label="Configuration">
        {tiles.map((t) => (
          <Link key={t.to} href={t.to} className="tile">
            <span className="tile-icon" aria-hidden="true" style={{ background: t.color }}>
              <t.icon size={30} strokeWidth={2} />
            </span>
            <span className="tile-label">{t.label}</span>
          </Link>
        ))}
        <a className="tile" href={priceList} target="_blank" rel="noopener">
          <span className="tile-icon" aria-hidden="true" style={{ background: "#4338ca" }}>
            <FileText size={30} strokeWidth={2} />
          </span>
          <span className="tile-label">Price list</span>
        </a>
      </nav>
      <ReferenceVersion />
      <WorkloadList />
    </div>
  );
}
