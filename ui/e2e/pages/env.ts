/** Where the two test boxes of playwright.config.ts listen. */
export const MAIN_PORT = 8099;
export const EMPTY_PORT = 8098;
export const EMPTY_BOX = `http://localhost:${EMPTY_PORT}`;
