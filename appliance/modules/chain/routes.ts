import { z } from "zod";
import { toEuros } from "../../domain/money";
import { businessDay } from "../../domain/dates";
import { HQ_STAFF, route } from "../../http/route";
import type { Clock } from "../../platform/clock";
import { REPORT_NAMES, type ReportName } from "../reports/model";
import { sumHome } from "../reports/queries";
import { fileResponse, homeEuros, REPORT_QUERIES, REPORT_SUMMARIES } from "../reports/routes";
import { ChainShop, ChainStatistics, SiteFilter, SiteList, SiteParams, SiteState } from "./model";
import type { SiteStateCents } from "./records";
import type { ChainService } from "./service";
import { shopsOfCopies } from "./shops";

const depositEuros = <T extends { taken: number; given_back: number; spent: number; held: number }>(d: T): T => ({
  ...d,
  taken: toEuros(d.taken),
  given_back: toEuros(d.given_back),
  spent: toEuros(d.spent),
  held: toEuros(d.held),
});
const euros = (s: SiteStateCents): SiteState => ({
  ...s,
  today_takings: toEuros(s.today_takings),
  deposits: s.deposits ? { ...depositEuros(s.deposits), shops: s.deposits.shops.map(depositEuros) } : null,
});

/**
 * The chain view (issue 15): HQ staff on head quarters' box. Each route first asks whether the
 * box is in HQ mode (409 on a shop's box), then does its work.
 */
export function chainRoutes(chain: ChainService, clock: Clock) {
  return [
    route({
      method: "GET",
      path: "/chain/sites",
      tag: "chain",
      summary: "HQ mode: every site, its copy's last data, lag, today's takings and the last restore's error (409 on a shop's box)",
      access: HQ_STAFF,
      response: SiteList,
      handler: () => chain.list().map(euros),
    }),
    route({
      method: "GET",
      path: "/chain/shops",
      tag: "chain",
      summary:
        "HQ mode: the shops (agents) of every readable site copy, or of ?site= (404 not a site, 409 no readable copy yet), by site then name, with each shop's id at its site",
      access: HQ_STAFF,
      query: SiteFilter,
      response: z.array(ChainShop),
      // copiesOf answers 409 on a shop's box before any copy is read.
      handler: ({ query }) => shopsOfCopies(chain.copiesOf(query.site)),
    }),
    route({
      method: "POST",
      path: "/chain/sites/:site/restore",
      tag: "chain",
      summary:
        "HQ mode: restore the site's copy from its replica now (joins a restore already running); answers the site afterwards, with the failure in last_error",
      access: HQ_STAFF,
      params: SiteParams,
      response: SiteState,
      handler: async ({ params }) => euros(await chain.restoreNow(params.site)),
    }),
    ...REPORT_NAMES.map((name: ReportName) =>
      route({
        method: "GET",
        path: `/chain/reports/${name}`,
        tag: "chain",
        summary: `HQ mode, over every site's copy (or ?site=), a Site column first: ${REPORT_SUMMARIES[name]}`,
        access: HQ_STAFF,
        // The report's own query (validated as at /tickets/csv) and the site filter.
        query: z.intersection(REPORT_QUERIES[name], SiteFilter),
        raw: true,
        handler: async ({ query, request }) => fileResponse(await chain.report(name, query, query.site, request.signal)),
      }),
    ),
    route({
      method: "GET",
      path: "/chain/statistics",
      tag: "chain",
      summary: "HQ mode: the home statistics of each site's copy (or ?site=) and summed over them",
      access: HQ_STAFF,
      query: SiteFilter,
      response: ChainStatistics,
      handler: async ({ query }): Promise<ChainStatistics> => {
        const sites = await chain.statistics(query.site);
        const day = sites[0]?.figures.day ?? businessDay(clock.now());
        return {
          day,
          chain: homeEuros(
            sumHome(
              day,
              sites.map((s) => s.figures),
            ),
            "chain",
            false,
          ),
          // Each site's own shops (agents) side by side, as on that site's admin home at HQ.
          sites: sites.map((s) => ({ site: s.site, statistics: homeEuros(s.figures, "chain", true) })),
        };
      },
    }),
  ];
}
