/**
 * Where the two test boxes of playwright.config.ts listen (E2E_PORT moves both, so two
 * runs can share a machine).
 */
const base = Number(process.env.E2E_PORT) || 8099;
export const MAIN_PORT = base;
export const EMPTY_PORT = base - 1;
export const EMPTY_BOX = `http://localhost:${EMPTY_PORT}`;
