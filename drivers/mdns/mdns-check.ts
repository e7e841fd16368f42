/**
 * Run inside a private network namespace by mdns.test.ts: a box publishes; a second box with
 * the same site name renames itself; a browser finds both.
 */
import { advertise, browse } from "./advertise";

const logs: string[] = [];
const first = advertise("Test Site", 8123, (m) => logs.push(m));
const firstName = await first.name;
const second = advertise("Test Site", 8124, (m) => logs.push(m));
const secondName = await second.name;
const found = await browse(1500);
await second.stop();
await first.stop();
console.log(JSON.stringify({ names: [firstName, secondName], found, logs }));
process.exit(0);
