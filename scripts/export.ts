// npm run export -- <file.zip>
// Leaving (issue 26): everything this box holds, one CSV per table plus a consistent copy of
// the database, as one zip (appliance/modules/import/exportChild.ts says what is left out).
// Reads the database IRONBOX_DATA_DIR / DATABASE_URL names; the box may keep running.
import { chmodSync, createWriteStream, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { exportZip } from "../appliance/modules/import/exportChild";
import { loadConfig } from "../appliance/platform/config";

const file = process.argv[2];
if (!file) {
  console.error("usage: npm run export -- <file.zip>");
  process.exit(2);
}
const config = loadConfig(process.env);
if (!config.databaseUrl.startsWith("file:")) {
  console.error("export reads a local database file; DATABASE_URL is a remote libSQL server");
  process.exit(2);
}
const dbFile = config.databaseUrl.replace(/^file:(\/\/)?/, "").replace(/\?.*$/, "");
const partial = `${file}.partial`;
const t0 = performance.now();
// 0600 from its first byte: the zip holds every shop's customers and the password and PIN
// hashes. A leftover partial file is removed first (an open does not change an existing mode).
rmSync(partial, { force: true });
// Stopped (Ctrl-C, SIGTERM): neither the half zip nor the database copy it reads is left behind.
const copy = join(dirname(dbFile), `export-${process.pid}-${Date.now()}.db`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    for (const f of [partial, copy, `${copy}-journal`]) rmSync(f, { force: true });
    process.exit(1);
  });
await exportZip(dbFile, dirname(dbFile), createWriteStream(partial, { mode: 0o600, flags: "wx" }), copy);
chmodSync(partial, 0o600);
renameSync(partial, file); // a zip that is there is whole
console.log(`Exported to ${file} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
