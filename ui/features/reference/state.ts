import { signal } from "@preact/signals-react";
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect } from "react";
import type { ReferenceStatus } from "../../../appliance/modules/reference/model";
import { api } from "../../lib/api";
import { employeeToken } from "../../lib/session";

/** GET /reference/status, asked once per employee session (and again after a publish or sync). */
export const referenceStatus = signal<{ token: string; status: ReferenceStatus } | null>(null);
let asking: string | null = null;

export async function loadReferenceStatus(): Promise<ReferenceStatus | null> {
  const token = employeeToken.value;
  if (!token) return null;
  asking = token;
  try {
    const status = await api<ReferenceStatus>("GET", "/reference/status", { quiet: true });
    if (employeeToken.value === token) referenceStatus.value = { token, status };
    return status;
  } catch {
    return null;
  } finally {
    if (asking === token) asking = null;
  }
}

/** This box's reference data status, or undefined until the box has said (for this session). */
export function useReferenceStatus(): ReferenceStatus | undefined {
  useSignals();
  const token = employeeToken.value;
  const known = referenceStatus.value;
  const missing = token && known?.token !== token ? token : null;
  useEffect(() => {
    if (missing && asking !== missing) void loadReferenceStatus();
  }, [missing]);
  return token && known?.token === token ? known.status : undefined;
}

/**
 * Whether head quarters manages this box's reference data (catalogue, places, workload,
 * capacity, templates are then read-only here); undefined until known.
 */
export function useManaged(): boolean | undefined {
  return useReferenceStatus()?.managed;
}
