export * from "./places";
export * from "./people";
export * from "./catalogue";
export * from "./tickets";
export * from "./system";
export * from "./payments";
export * from "./import";
export * from "./public";
