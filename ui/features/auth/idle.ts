import { useSignals } from "@preact/signals-react/runtime";
import { useEffect } from "react";
import { employee } from "../../lib/session";
import { logoutEmployee } from "./actions";

/** Spec §6 idle timeout, in minutes (README): 480 for drivers, 6 for everyone else. */
export const IDLE_MINUTES = { driver: 480, default: 6 } as const;
const ACTIVITY = ["pointerdown", "keydown", "touchstart", "wheel", "scroll"] as const;

/** Logs the employee out (not the shop) after the idle time with no touch, key or scroll. */
export function useIdleLogout() {
  useSignals();
  const e = employee.value;
  useEffect(() => {
    if (!e) return;
    const ms = (e.role === "driver" ? IDLE_MINUTES.driver : IDLE_MINUTES.default) * 60_000;
    let timer = setTimeout(logoutEmployee, ms);
    const reset = () => {
      clearTimeout(timer);
      timer = setTimeout(logoutEmployee, ms);
    };
    for (const ev of ACTIVITY) window.addEventListener(ev, reset, { passive: true });
    return () => {
      clearTimeout(timer);
      for (const ev of ACTIVITY) window.removeEventListener(ev, reset);
    };
  }, [e?.employee_id, e?.role]);
}
