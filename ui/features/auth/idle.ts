import { useSignals } from "@preact/signals-react/runtime";
import { useEffect } from "react";
import { api } from "../../lib/api";
import { employee, employeeToken, lastActivity, touchActivity } from "../../lib/session";
import { logoutEmployee } from "./actions";

/** Spec §6 idle timeout, in minutes (README): 480 for drivers, 6 for everyone else. */
export const IDLE_MINUTES = { driver: 480, default: 6 } as const;
const ACTIVITY = ["pointerdown", "keydown", "touchstart", "wheel"] as const;
/** Storage is written at most this often; the timer itself restarts on every event. */
const PERSIST_EVERY_MS = 5_000;
/**
 * The box ends an idle employee session too (it counts requests, not touches): while the
 * person works on one screen without a request, the tablet tells the box at most this often.
 */
const HEARTBEAT_MS = 60_000;

export const idleMs = (role: string) => (role === "driver" ? IDLE_MINUTES.driver : IDLE_MINUTES.default) * 60_000;

/**
 * Logs the employee out (not the shop) after the idle time with no touch, key or pointer
 * activity. The last activity is kept in storage, so a reload does not start a fresh clock.
 */
export function useIdleLogout() {
  useSignals();
  const e = employee.value;
  // Each login is a new token, so a new session starts its own clock.
  const token = employeeToken.value;
  useEffect(() => {
    if (!e) return;
    const ms = idleMs(e.role);
    const since = Date.now() - (lastActivity() ?? Date.now());
    let timer = setTimeout(logoutEmployee, Math.max(0, ms - since));
    let persisted = 0;
    let told = Date.now();
    const reset = () => {
      clearTimeout(timer);
      timer = setTimeout(logoutEmployee, ms);
      const now = Date.now();
      if (now - persisted >= PERSIST_EVERY_MS) {
        persisted = now;
        touchActivity(now);
      }
      if (now - told >= HEARTBEAT_MS) {
        told = now;
        api("GET", "/me", { quiet: true }).catch(() => {});
      }
    };
    for (const ev of ACTIVITY) window.addEventListener(ev, reset, { passive: true, capture: true });
    return () => {
      clearTimeout(timer);
      for (const ev of ACTIVITY) window.removeEventListener(ev, reset, { capture: true });
    };
  }, [token]);
}

/**
 * At start: a stored employee session whose idle time ran out while the page was closed
 * ends before any screen renders with it.
 */
export function expireIfIdle(now = Date.now()) {
  const e = employee.value;
  const last = lastActivity();
  if (e && last !== null && now - last >= idleMs(e.role)) logoutEmployee();
}
