/**
 * Where the tablet keeps its session in local storage (ui/lib/session.ts), on its own so the
 * browser tests can put an API login's tokens there without importing the UI.
 */
export const STORAGE_VERSION = 5;
export const SESSION_KEYS = {
  version: "ironbox.version",
  agent: "ironbox.agentToken",
  employee: "ironbox.employeeToken",
  activity: "ironbox.lastActivity",
} as const;
