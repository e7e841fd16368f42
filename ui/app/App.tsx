import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useRef, useState } from "react";
import { Redirect, Route, Switch, useLocation, useRoute } from "wouter";
import { ConfirmDialogHost } from "../components/dialog";
import { LoadingBar } from "../components/loading";
import { Toasts } from "../components/toast";
import { AgentLogin } from "../features/auth/AgentLogin";
import { PinModal } from "../features/auth/PinModal";
import { SetupScreen } from "../features/auth/SetupScreen";
import { useIdleLogout } from "../features/auth/idle";
import { OfflineBanner } from "../features/lan/OfflineBanner";
import { TabletSetup } from "../features/lan/TabletSetup";
import { api } from "../lib/api";
import { Home } from "../features/home/Home";
import { newReleaseInstalled, reloadForNewRelease } from "../lib/release";
import { agentLoggedIn, employee } from "../lib/session";
import { allowed, useAgentIsHq } from "./access";
import { Header } from "./Header";
import { ROUTES } from "./routes";
import type { Health } from "../../appliance/modules/system/model";
import { setShopTimeZone } from "../../appliance/domain/dates";

/** Root: first-run setup, then agent login, then the PIN modal over home, then the app. */
export function App() {
  useSignals();
  const [setup, setSetup] = useState<boolean | null>(null);
  useEffect(() => {
    api<Health>("GET", "/health", { quiet: true })
      .then((h) => {
        // Days and times show in the box's zone, not the tablet's (domain/dates.ts).
        if (h.time_zone) setShopTimeZone(h.time_zone);
        setSetup(h.setup_required);
      })
      .catch(() => setSetup(false));
  }, []);
  useIdleLogout();
  useReloadForNewRelease();
  const [isTabletSetup] = useRoute("/setup-tablet");

  let body;
  // The tablet set-up page is public: a new tablet opens it before anyone logs in.
  if (isTabletSetup) body = <TabletSetup />;
  else if (setup === null) body = <div className="splash">Ironbox</div>;
  else if (setup) body = <SetupScreen onDone={() => setSetup(false)} />;
  else if (!agentLoggedIn.value) body = <AgentLogin />;
  else body = <Shell />;
  return (
    <>
      <OfflineBanner />
      {newReleaseInstalled.value && (
        <div className="release-banner" role="status">
          Ironbox was updated on the box: this screen refreshes when you move to another one.
        </div>
      )}
      <LoadingBar />
      {body}
      <ConfirmDialogHost />
      <Toasts />
    </>
  );
}

/**
 * Once the box serves a new release (lib/release.ts), the page reloads when the person moves to
 * another screen, or at once on home: never under someone's hands in the middle of a ticket.
 */
function useReloadForNewRelease() {
  const [location] = useLocation();
  const where = useRef(location);
  const installed = newReleaseInstalled.value;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again when the release signal flips (read above, in render).
  useEffect(() => {
    if (!installed) where.current = location;
    else if (location !== where.current) reloadForNewRelease(`moved to ${location}`);
    else if (location === "/home") reloadForNewRelease("on home");
  }, [installed, location]);
}

function Shell() {
  useSignals();
  const e = employee.value;
  const hqAgent = useAgentIsHq();
  return (
    <div className="shell">
      <Header />
      <main className="content">
        {/* Spec §2: routes open only once an employee is in; until then the PIN modal sits
            over home, so no screen loads data with the shop token alone. */}
        {!e ? (
          <Switch>
            <Route path="/home">
              <Home />
            </Route>
            <Route>
              <Redirect to="/home" replace />
            </Route>
          </Switch>
        ) : (
          <Switch>
            <Route path="/">
              <Redirect to="/home" replace />
            </Route>
            {ROUTES.map((r) => (
              <Route key={r.path} path={r.path}>
                {(params) =>
                  allowed(r.access, e, hqAgent) ? (
                    <r.component params={params} />
                  ) : (r.access === "scheduler" || r.access === "hqStaff") && hqAgent === undefined ? (
                    // A deep link waits for the box to say whether this is the HQ agent.
                    <p className="muted">Loading…</p>
                  ) : (
                    <Redirect to="/home" replace />
                  )
                }
              </Route>
            ))}
            <Route>
              <Redirect to="/home" replace />
            </Route>
          </Switch>
        )}
      </main>
      {!e && <PinModal />}
    </div>
  );
}
