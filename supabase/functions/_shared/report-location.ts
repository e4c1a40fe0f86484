/**
 * A report's location, from the server only (issue 27, docs/behaviour.md §13): the caller's address
 * resolved here (geo.ts), set on the caller's own report just filed through public.locate_report
 * (service role; the database refuses loc and country from API roles). Used by the `visitor` function
 * for the report form and by the legacy API's POST /reports.
 */
import { visitFrom } from './geo.ts';
import { serviceClient } from './service.ts';

/** Sets and answers the location of `reportId` (the caller's own, just filed), or null when none was set. */
export async function locateReport(
  req: Request,
  reporterId: string,
  reportId: string,
): Promise<{ loc: string | null; country: string | null } | null> {
  const { location } = await visitFrom(req);
  if (!location || (!location.loc && !location.country)) return null;
  const visit = { loc: location.loc, country: location.country };
  const { data, error } = await serviceClient().rpc('locate_report', {
    report_id: reportId,
    reporter: reporterId,
    visit,
  });
  if (error) {
    // The report stands without a location; the heatmap just lacks its point.
    console.error(`report ${reportId}: location not set`, error);
    return null;
  }
  return data ? visit : null;
}
