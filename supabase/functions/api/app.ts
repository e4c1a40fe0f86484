/**
 * The legacy API's routes (docs/behaviour.md §7), apart from index.ts, which serves them: tests read the
 * served routes from this router, so a route added here without a test is noticed.
 */
import { Router } from './router.ts';
import { json } from '../_shared/http.ts';
import { buildOpenApi } from './openapi.ts';
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
import { postCheckMessage } from './routes/check.ts';
import { getRange } from './routes/range.ts';
import { getVisitor, postContact } from './routes/visitor.ts';
import { addNews, allNews, frontPage, oneNews } from './routes/news.ts';
import { deleteNotify, listNotify, postNotify } from './routes/notify.ts';
import { appStats } from './routes/admin.ts';
import {
  confirmRemovalRequest,
  createRemovalRequest,
  listRemovalRequests,
  respondToRemovalRequest,
} from './routes/removal.ts';
import {
  TAXII_API_ROOT,
  getPartnerDirFile,
  getPartnerFile,
  taxiiApiRoot,
  taxiiCollection,
  taxiiCollections,
  taxiiDiscovery,
  taxiiManifest,
  taxiiObject,
  taxiiObjects,
} from './routes/feeds.ts';

const TAXII_ROOT = `/taxii2/${TAXII_API_ROOT}`;

let openApiDocument: Record<string, unknown> | undefined;

export const router = new Router('/api/v1')
  // Built from this very table on first use (api/openapi.ts), so it lists what is served.
  .on('GET', '/openapi.json', async () => {
    const base = Deno.env.get('SUPABASE_URL');
    openApiDocument ??= buildOpenApi(
      router.list(),
      undefined,
      base ? `${base}/functions/v1/api/v1` : '/api/v1',
    );
    return json(openApiDocument, 200, { 'Cache-Control': 'public, max-age=300' });
  })
  .on('POST', '/auth/register', register)
  .on('POST', '/auth/login', login)
  .on('GET', '/auth/logout', logout)
  .on('POST', '/auth/logout', logout)
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
  .on('POST', '/check-message', postCheckMessage)
  .on('GET', '/range/:prefix', getRange)
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
  .on('POST', '/removal-requests/:id/response', respondToRemovalRequest)
  .on('GET', '/removal-requests/:id/confirm', confirmRemovalRequest)
  // Threat-intelligence feeds (issue 34): TAXII 2.1, read-only, and the partner (TLP:AMBER) files.
  .on('GET', '/taxii2', taxiiDiscovery)
  .on('GET', TAXII_ROOT, taxiiApiRoot)
  .on('GET', `${TAXII_ROOT}/collections`, taxiiCollections)
  .on('GET', `${TAXII_ROOT}/collections/:id`, taxiiCollection)
  .on('GET', `${TAXII_ROOT}/collections/:id/objects`, taxiiObjects)
  .on('GET', `${TAXII_ROOT}/collections/:id/objects/:objectId`, taxiiObject)
  .on('GET', `${TAXII_ROOT}/collections/:id/manifest`, taxiiManifest)
  .on('GET', '/feeds/partner/:file', getPartnerFile)
  .on('GET', '/feeds/partner/:dir/:file', getPartnerDirFile);
