import { invokeFunction } from '@/lib/functions';

/**
 * Asks the `visitor` edge function to set the location of the report the user just filed (issue 27,
 * docs/behaviour.md §13): the function resolves the caller's address on the server with an offline IP
 * database and sets loc and country through the database's service-role entry point. The browser
 * never sends a location (the database refuses one from it), never learns or sends an IP address, and
 * no raw address is stored. A failure leaves the report without a heatmap point, nothing worse.
 */
export async function locateReport(reportId: string): Promise<boolean> {
  try {
    const data = await invokeFunction<{ reportLocated?: boolean } | null>('visitor', {
      paths: [],
      report: reportId,
    });
    return data?.reportLocated === true;
  } catch {
    return false;
  }
}
