/**
 * Gives an existing box's database the page size new boxes get (db/pageSize.ts; issue 33,
 * docs/decisions/wal-per-sale.md). Offline: stop the box (and its Litestream) first.
 *   bun scripts/page-size.ts <dataDir> [--size 2048]
 */
import { join } from "node:path";
import { PAGE_SIZE } from "../db/client";
import { convertPageSize } from "../db/pageSize";

const dataDir = process.argv[2];
if (!dataDir || dataDir.startsWith("--")) throw new Error("usage: bun scripts/page-size.ts <dataDir> [--size 2048]");
const size = process.argv.includes("--size") ? Number(process.argv[process.argv.indexOf("--size") + 1]) : PAGE_SIZE;
if (![512, 1024, 2048, 4096, 8192, 16384, 32768, 65536].includes(size)) throw new Error(`--size ${size}: not a SQLite page size`);
const r = await convertPageSize(join(dataDir, "ironbox.db"), { size, log: (m) => console.log(`ironbox page size: ${m}`) });
console.log(JSON.stringify(r));
