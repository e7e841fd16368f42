// archiver (a dependency of exceljs) ships no types; the export uses three calls of it.
declare module "archiver";
