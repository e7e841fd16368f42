import { signal } from "@preact/signals-react";
import { useSignals } from "@preact/signals-react/runtime";
import { useLocation, useRoute } from "wouter";
import { confirmDialog } from "../components/dialog";
import { logoutAgent } from "../features/auth/actions";
import { agent, employee } from "../lib/session";
import { ROLE_LABEL } from "./access";
import { ROUTES } from "./routes";

/** A screen whose back target depends on its data (ticket view → its customer) sets this. */
export const backTo = signal<string | null>(null);

function useCurrentRoute() {
  const [location] = useLocation();
  // wouter's matcher, applied to our table, finds the screen we are on for its title and back.
  return ROUTES.find((r) => new RegExp(`^${r.path.replace(/:\w+/g, "[^/]+")}$`).test(location));
}

/** The page header: back and home, the screen title, who is logged in, and shop logout. */
export function Header() {
  useSignals();
  const [, navigate] = useLocation();
  const route = useCurrentRoute();
  const [isHome] = useRoute("/home");
  const e = employee.value;
  return (
    <header className="header">
      <div className="header-left">
        {!isHome && (
          <>
            <button type="button" className="icon-btn" aria-label="Back" onClick={() => navigate(backTo.value ?? route?.back ?? "/home")}>
              ←
            </button>
            <button type="button" className="icon-btn" aria-label="Home" onClick={() => navigate("/home")}>
              ⌂
            </button>
          </>
        )}
        <h1 className="title">{route?.title ?? "Ironbox"}</h1>
      </div>
      <div className="header-right">
        <span className="who" data-testid="who">
          {agent.value?.agent_name}
          {e ? ` · ${e.employee_name} (${ROLE_LABEL[e.role]})` : ""}
        </span>
        <button
          type="button"
          className="btn btn-small"
          onClick={async () => {
            if (await confirmDialog({ title: "Log out shop", message: "Log this tablet out of the shop? Everyone will need the shop password again." }))
              logoutAgent();
          }}
        >
          Log out shop
        </button>
      </div>
    </header>
  );
}
