/** Run inside a private network namespace by mdns.test.ts: publish, then browse. */
import { advertise, browse } from "./advertise";

const ad = advertise("Test Site", 8123);
const found = await browse(1500);
await ad.stop();
console.log(JSON.stringify(found));
process.exit(0);
