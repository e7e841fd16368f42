import { advertise } from "../drivers/mdns/advertise";
import { bootAppliance } from "./boot";
import { lanFront } from "./http/lanFront";
import { loadConfig } from "./platform/config";
import { stableHostName } from "./domain/lanNames";
import { ensureCertificates } from "./platform/tls";

// The data folder's files (database, WAL, images, backups, keys) are the service's alone, also
// when started without the unit's UMask=0077 (by hand, restore-box.sh --start); children inherit it.
process.umask(0o077);
const started = performance.now();
const config = loadConfig();
const { app, publicApp, database, stop } = await bootAppliance(config);
const https = config.https ? await serveHttps(config.https.port) : null;
app.listen({ port: config.port, hostname: "0.0.0.0", maxRequestBodySize: 16 * 1024 * 1024 });
// Issue 35: the public face on a port of its own, with only the public routes (a booking is a few hundred bytes).
if (config.publicFace.port !== null) publicApp.listen({ port: config.publicFace.port, hostname: "0.0.0.0", maxRequestBodySize: 16 * 1024 });
// Tablets on the shop Wi-Fi find the box by name.
const mdns = config.mdns ? advertise(config.site, { http: config.port, https: https?.port ?? null }) : null;
console.log(
  `Ironbox ${config.version} serving http://localhost:${config.port}${https ? ` and https://${stableHostName(config.site)}:${https.port}` : ""}${config.publicFace.port !== null ? `, the public face on port ${config.publicFace.port}` : ""} (data: ${config.dataDir}) in ${Math.round(performance.now() - started)} ms`,
);

/**
 * HTTPS beside HTTP with the box's own CA (platform/tls.ts; made or renewed here), and the
 * HTTP rules of http/lanFront.ts. A busy port leaves the box serving HTTP only, and says so.
 */
async function serveHttps(port: number) {
  const tls = await ensureCertificates({ dataDir: config.dataDir, site: config.site });
  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve({
      port,
      hostname: "0.0.0.0",
      tls: { cert: tls.cert, key: tls.key },
      maxRequestBodySize: 16 * 1024 * 1024,
      idleTimeout: 30,
      fetch: (request) => app.handle(request),
    });
  } catch (error) {
    console.error(`HTTPS is off: port ${port} could not be opened (${(error as Error).message}); the box serves HTTP only`);
    return null;
  }
  const front = lanFront({ httpsPort: server.port!, caDer: tls.caDer, caFileName: stableHostName(config.site).replace(/\.local$/, "-ca.crt") });
  app.onRequest(({ request }) => front(request));
  return server;
}

// systemd stops us with SIGTERM: stop accepting requests, then close the database cleanly.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, async () => {
    await mdns?.stop();
    https?.stop();
    await app.stop();
    if (config.publicFace.port !== null) await publicApp.stop();
    await stop();
    database.close();
    process.exit(0);
  });
}
