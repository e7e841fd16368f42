import { stableHostName } from "../../domain/lanNames";
import { readCaCertificate, readCertificateInfo } from "../../platform/tls";
import type { TabletSetup } from "./model";

/** Where a tablet downloads the box's CA (served by main.ts on HTTP and HTTPS alike). */
export const CA_PATH = "/ca.crt";

/** What the tablet set-up page shows: the box's names, ports and CA fingerprint (no secrets). */
export function createLanService(deps: { dataDir: string; site: string; httpPort: number; httpsPort: number | null }) {
  return {
    tabletSetup(): TabletSetup {
      const ca = deps.httpsPort === null ? null : readCaCertificate(deps.dataDir);
      return {
        site: deps.site,
        host_name: stableHostName(deps.site),
        http_port: deps.httpPort,
        https_port: ca ? deps.httpsPort : null,
        ca: ca && { url: CA_PATH, sha256_fingerprint: ca.fingerprint, expires_at: ca.expires_at, replaced_at: ca.replaced_at },
        certificate: ca && readCertificateInfo(deps.dataDir),
      };
    },
  };
}
export type LanService = ReturnType<typeof createLanService>;
