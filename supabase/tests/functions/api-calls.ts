/**
 * Every /api/v1 call, one concrete request per route (path parameters filled in). The malformed-input
 * test sends each of them hostile input; tests/units/api-routes.test.ts fails when the api function
 * serves a route this list lacks, or the list names one it no longer serves.
 */
const ID = '00000000-0000-4000-a000-000000000000';
export const API_CALLS: [string, string][] = [
  ['GET', '/openapi.json'],
  ['POST', '/auth/register'],
  ['POST', '/auth/login'],
  ['GET', '/auth/logout'],
  ['POST', '/auth/logout'],
  ['GET', `/verify/${Buffer.from('x.1').toString('base64')}`],
  ['GET', '/users/current-user'],
  ['PATCH', '/users/update-user'],
  ['GET', '/users/admin/app-stats'],
  ['GET', '/reports'],
  ['POST', '/reports'],
  ['GET', '/reports/stats'],
  ['GET', `/reports/${ID}`],
  ['PATCH', `/reports/${ID}`],
  ['DELETE', `/reports/${ID}`],
  ['POST', '/search'],
  ['GET', '/search/anything'],
  ['POST', '/check-message'],
  ['GET', '/range/abcde'],
  ['GET', '/visitor'],
  ['POST', '/visitor/contact'],
  ['GET', '/news/frontpage'],
  ['GET', '/news'],
  ['POST', '/news/addnews'],
  ['GET', `/news/${ID}`],
  ['POST', '/notify'],
  ['GET', '/notify'],
  ['DELETE', `/notify/${ID}`],
  ['POST', '/removal-requests'],
  ['GET', '/removal-requests'],
  ['POST', `/removal-requests/${ID}/response`],
  ['GET', `/removal-requests/${ID}/confirm`],
];
