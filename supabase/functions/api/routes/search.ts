/** Search (POST /search and GET /search/{searchString}) through the database's search_reports. */
import { readFields } from '../../_shared/body.ts';
import { json } from '../../_shared/http.ts';
import { parseFields, searchSchema } from '../../_shared/schemas.ts';
import { locatedSearch } from '../../_shared/search.ts';
import { searchReportOut } from '../present.ts';
import type { RouteContext } from '../router.ts';

/**
 * Runs one search as the caller (anonymous callers get the limited columns) and logs it with the
 * location resolved here from the caller's address; the location the old client put in the query
 * string is ignored, because a client can claim anything there.
 */
async function runSearch(req: Request, searchString: string) {
  const result = await locatedSearch(req, searchString);
  return {
    searchString,
    count: result.count,
    reports: result.reports.map(searchReportOut),
    summary: {
      numberOfReports: result.summary.count,
      lastReportedVictimCountry: result.summary.last_victim_country,
      riskPercentage: result.summary.risk_level,
      riskLevel: result.summary.risk_label,
      // The old client reads a number here; amountShown says whether it is a real figure (issue 27).
      estimatedAmountLost: result.summary.estimated_amount_lost ?? 0,
      amountShown: result.summary.estimated_amount_lost != null,
      verifiedReports: result.summary.verified_count,
      pendingReports: result.summary.pending_count,
      riskNote: result.summary.risk_note,
    },
    points: result.points.map(([lat, lng]) => `${lat},${lng}`),
  };
}

/**
 * The old client posts the search, then opens /search/{searchString}, whose GET runs and records it.
 * Recording here as well would count every search twice (and Brave users, who skip this call, once),
 * so this call only validates and acknowledges; the GET is the one place a search is recorded.
 */
export async function postSearch({ req }: RouteContext): Promise<Response> {
  const input = parseFields(searchSchema, await readFields(req));
  return json({
    msg: 'Search received',
    searchString: input.searchString,
    next: `/search/${encodeURIComponent(input.searchString)}`,
  });
}

export async function getSearch({ req, params }: RouteContext): Promise<Response> {
  const { searchString } = parseFields(searchSchema, { searchString: params.id });
  return json(await runSearch(req, searchString));
}
