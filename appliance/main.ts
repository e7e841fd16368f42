import { advertise } from "../drivers/mdns/advertise";
import { bootAppliance } from "./boot";
import { loadConfig } from "./platform/config";

const started = performance.now();
const config = loadConfig();
const { app, database, stop } = await bootAppliance(config);
app.listen({ port: config.port, hostname: "0.0.0.0", maxRequestBodySize: 16 * 1024 * 1024 });
// Tablets on the shop Wi-Fi find the box by name.
const mdns = config.mdns ? advertise(config.site, config.port) : null;
console.log(`Ironbox ${config.version} serving http://localhost:${config.port} (data: ${config.dataDir}) in ${Math.round(performance.now() - started)} ms`);

// systemd stops us with SIGTERM: stop accepting requests, then close the database cleanly.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, async () => {
    await mdns?.stop();
    await app.stop();
    stop();
    database.close();
    process.exit(0);
  });
}
