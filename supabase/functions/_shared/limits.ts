/**
 * Limits the app and the functions share. Free of imports, so the app's home page can import it
 * without pulling in anything else; public.search_reports holds the same numbers in SQL.
 */

/** A search string is 1 to this many characters. */
export const SEARCH_MAX_LENGTH = 256;

/** A search answers with (and the Latest Incident table shows) the newest this many reports. */
export const LATEST_INCIDENT_ROWS = 10;
