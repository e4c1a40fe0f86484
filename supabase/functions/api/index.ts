/**
 * The legacy REST API (SPEC.md section 7) under /api/v1, on Supabase: every call is made with
 * supabase-js as the caller (their bearer token or the session cookie set at login), so the
 * database's row-level security decides what each caller may read and change.
 *
 * Reached at {SUPABASE_URL}/functions/v1/api/v1/... (the function sees /api/v1/...) and, through the
 * app server, at {APP_URL}/api/v1/.... verify_jwt is off for this function (supabase/config.toml)
 * because the old client authenticates with a cookie; every route checks the caller itself.
 */
import { preflight } from '../_shared/cors.ts';
import { toErrorResponse } from '../_shared/http.ts';
import { identify, renewedCookies } from '../_shared/supabase.ts';
import { withCookies } from '../_shared/cookies.ts';
import { Router } from './router.ts';
import { login, logout, register, verify } from './routes/auth.ts';
import { currentUser, updateUser } from './routes/users.ts';
import {
  createReport,
  deleteReport,
  getReport,
  listReports,
  reportStats,
  updateReport,
} from './routes/reports.ts';
import { getSearch, postSearch } from './routes/search.ts';
import { getVisitor, postContact } from './routes/visitor.ts';
import { addNews, allNews, frontPage, oneNews } from './routes/news.ts';
import { deleteNotify, listNotify, postNotify } from './routes/notify.ts';
import { appStats } from './routes/admin.ts';
import { createRemovalRequest, listRemovalRequests, respondToRemovalRequest } from './routes/removal.ts';

export const router = new Router('/api/v1')
  .on('POST', '/auth/register', register)
  .on('POST', '/auth/login', login)
  .on('GET', '/auth/logout', logout)
  .on('GET', '/verify/:code', verify)
  .on('GET', '/users/current-user', currentUser)
  .on('PATCH', '/users/update-user', updateUser)
  .on('GET', '/users/admin/app-stats', appStats)
  .on('GET', '/reports', listReports)
  .on('POST', '/reports', createReport)
  .on('GET', '/reports/stats', reportStats)
  .on('GET', '/reports/:id', getReport)
  .on('PATCH', '/reports/:id', updateReport)
  .on('DELETE', '/reports/:id', deleteReport)
  .on('POST', '/search', postSearch)
  .on('GET', '/search/:id', getSearch)
  .on('GET', '/visitor', getVisitor)
  .on('POST', '/visitor/contact', postContact)
  .on('GET', '/news/frontpage', frontPage)
  .on('GET', '/news', allNews)
  .on('POST', '/news/addnews', addNews)
  .on('GET', '/news/:id', oneNews)
  .on('POST', '/notify', postNotify)
  .on('GET', '/notify', listNotify)
  .on('DELETE', '/notify/:id', deleteNotify)
  .on('POST', '/removal-requests', createRemovalRequest)
  .on('GET', '/removal-requests', listRemovalRequests)
  .on('POST', '/removal-requests/:id/response', respondToRemovalRequest);

/** Calls that start or end a session, where a stale token or cookie must not get in the way. */
const SESSION_CALLS = /^\/api\/v1\/(auth\/|verify\/)/;

Deno.serve(async (req) => {
  const early = preflight(req);
  if (early) return early;
  try {
    // A forged or expired token is refused before anything else is read (identify caches the answer
    // for the handler).
    if (!SESSION_CALLS.test(new URL(req.url).pathname)) await identify(req);
    return withCookies(await router.handle(req), renewedCookies(req));
  } catch (e) {
    return withCookies(toErrorResponse(e), renewedCookies(req));
  }
});
