import { describe, expect, test } from "bun:test";
import { ADMIN, testBox } from "../../test/harness";

// Issue 35: the bookings downlink carries one site's customers (names, phones, addresses), so
// it takes only that site's own token (reference/siteTokens.ts), never the chain-wide one.
const TOKEN = "t".repeat(40);
const API = "/api/v1";

describe("per-site downlink tokens", () => {
  test("site bkr's token reads bkr's envelopes only; the chain-wide token reads none; HQ shows a site's token to its staff, audited", async () => {
    const hq = await testBox({ env: { IRONBOX_MODE: "hq", IRONBOX_HQ_TOKEN: TOKEN } });
    try {
      const admin = await hq.employeeToken(ADMIN.pin);
      const tokenOf = async (site: string) => (await hq.call("POST", `${API}/reference/siteToken`, { token: admin, body: { site } })).json.data.token as string;
      const bkrToken = await tokenOf("bkr");
      expect(bkrToken).toMatch(/^site\.[A-Za-z0-9_-]{43}$/);
      expect(await tokenOf("bkr")).toBe(bkrToken); // derived, not stored: shown again the same
      expect(await tokenOf("mosta")).not.toBe(bkrToken);
      const down = (site: string, token: string) =>
        hq.call("GET", `${API}/bookings/downlink?site=${site}&after=0`, { headers: { authorization: `Bearer ${token}` } });
      expect((await down("bkr", bkrToken)).status).toBe(200);
      // Another site's envelopes: refused with bkr's token, and with the token every shop holds.
      expect((await down("mosta", bkrToken)).status).toBe(401);
      const chain = await down("bkr", TOKEN);
      expect(chain.status).toBe(403);
      expect(chain.json.message).toContain("IRONBOX_HQ_SITE_TOKEN");
      expect((await down("mosta", TOKEN)).status).toBe(403);
      // Each showing is audited (a shop admin is refused the route: http/permissions.test.ts walks every HQ-staff route).
      const audited = await hq.database.client.execute("SELECT detail FROM audit_log WHERE action = 'site_token'");
      expect(audited.rows.map((r) => JSON.parse(r[0] as string).site)).toEqual(["bkr", "bkr", "mosta"]);
    } finally {
      hq.close();
    }
  });
});
