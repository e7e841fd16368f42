/** Reference data from head quarters (issue 15): its version, publishing at HQ, the managed state. */
export { ReferenceScreen, ReferenceVersion } from "./ReferenceScreen";
export { useManaged, useReferenceStatus } from "./state";
