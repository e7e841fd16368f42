// The lan module's contract: what a tablet needs to find and trust the box (issue 16).
import { z } from "zod";

export const TabletSetup = z.object({
  site: z.string(),
  host_name: z.string().describe("The box's stable mDNS name, ironbox-<site>.local"),
  http_port: z.number().int(),
  https_port: z.number().int().nullable().describe("null when the box serves no HTTPS (IRONBOX_HTTPS=0)"),
  ca: z
    .object({
      url: z.string().describe("Where the CA certificate downloads (DER), on the box's plain HTTP port"),
      sha256_fingerprint: z.string().describe("To compare with what the tablet shows before trusting it"),
      expires_at: z.string(),
      replaced_at: z
        .string()
        .nullable()
        .describe(
          "When the box replaced an earlier CA (e.g. one without name constraints, issue 22): tablets that installed the old one must install this one",
        ),
    })
    .nullable(),
  certificate: z
    .object({ expires_at: z.string(), names: z.array(z.string()) })
    .nullable()
    .describe("The served server certificate"),
});
export type TabletSetup = z.infer<typeof TabletSetup>;
