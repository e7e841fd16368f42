import { signal } from "@preact/signals-react";
import { useSignals } from "@preact/signals-react/runtime";
import type { BoxMode } from "../../../appliance/domain/sites";
import type { Health } from "../../../appliance/modules/system/model";
import { api } from "../../lib/api";

/** The box's mode (GET /health), asked once per page load: it changes only with a restart. */
const mode = signal<BoxMode | undefined>(undefined);
let asked = false;

/** "hq" on head quarters' box (the Sites screen), "shop" elsewhere; undefined until the box has said. */
export function useBoxMode(): BoxMode | undefined {
  useSignals();
  if (!asked) {
    asked = true;
    api<Health>("GET", "/health", { quiet: true }).then(
      (h) => void (mode.value = h.mode),
      () => void (asked = false),
    );
  }
  return mode.value;
}
