/**
 * The OpenAPI 3.1 document of /api/v1 (issue 14), served at GET /api/v1/openapi.json. It is generated
 * from the router's own route table (api/app.ts), so a route cannot be served undocumented: building
 * the document throws when a route has no entry below, or an entry names a route nobody serves. Request
 * bodies come from the zod schemas the routes validate with, through zod 4's own z.toJSONSchema
 * (JSON Schema draft 2020-12, the dialect OpenAPI 3.1 uses), so the document and the validation cannot
 * drift; no extra library is needed for that since zod 4 ships the converter.
 */
import {
  contactSchema,
  createReportSchema,
  loginSchema,
  newsSchema,
  notifySchema,
  registerSchema,
  removalRequestSchema,
  removalResponseSchema,
  searchSchema,
  updateReportSchema,
  updateUserSchema,
  z,
} from '../_shared/schemas.ts';
import { API_KEY_PREFIX } from '../_shared/api-keys.ts';
import { SESSION_COOKIE } from '../_shared/cookies.ts';

type JsonSchema = Record<string, unknown>;

/** Who may call a route: anyone, a signed-in user (session), an admin, or a partner's API key. */
type Access = 'public' | 'user' | 'admin' | 'partner';

interface RouteDoc {
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  /** The zod schema of the body (JSON, URL-encoded or multipart, as the route reads it). */
  body?: z.ZodType;
  /** A body schema written out where the route validates by hand. */
  bodySchema?: JsonSchema;
  /** Multipart file fields the route takes besides the body's fields. */
  files?: string[];
  query?: { name: string; description: string; schema: JsonSchema }[];
  /** The success answer: status, what it is, and its schema when it is worth spelling out. */
  ok: {
    status: number;
    description: string;
    schema?: JsonSchema;
    headers?: Record<string, string>;
    /** The answer's media type when it is not application/json. */
    contentType?: string;
  };
  /** Other answers this route gives besides the common ones (400, 401 for keys, 429, 5xx). */
  errors?: Record<number, string>;
}

/** The verified owners' answers on an identifier (issue 32): search and check-message answers. */
const OWNER_STATEMENTS_SCHEMA = {
  type: 'array',
  description:
    "Added in issue 32: the answer of the identifier's owner, who proved control of it (verifiedBy: sms = SMS code, email = e-mail code, dns = DNS TXT record, wellknown = a file under /.well-known/, bio = a code in a social or chat account's public bio, review = an admin's review of the owner's evidence). Empty when no owner answered. Never names the owner.",
  items: {
    type: 'object',
    required: ['statement', 'updatedAt', 'verifiedBy', 'verifiedAt'],
    properties: {
      statement: { type: 'string', maxLength: 500 },
      updatedAt: { type: 'string', format: 'date-time' },
      verifiedBy: { enum: ['sms', 'email', 'dns', 'wellknown', 'bio', 'review'] },
      verifiedAt: { type: 'string', format: 'date-time' },
    },
  },
};

const pageQuery = [
  { name: 'page', description: 'Page number, from 1.', schema: { type: 'integer', minimum: 1 } },
  { name: 'limit', description: 'Items per page.', schema: { type: 'integer', minimum: 1 } },
];

const object = (description: string): JsonSchema => ({ type: 'object', description });

const TAXII_MEDIA = 'application/taxii+json;version=2.1';
const taxiiPaging = [
  {
    name: 'added_after',
    description: 'Only objects added (this version) after this time (RFC 3339, UTC, exclusive).',
    schema: { type: 'string', format: 'date-time' },
  },
  {
    name: 'limit',
    description: 'Objects per page: 1 to 1000, default 100.',
    schema: { type: 'integer', minimum: 1 },
  },
  {
    name: 'next',
    description: 'The `next` value of the page before (with the same other parameters): the following page.',
    schema: { type: 'string' },
  },
  { name: 'match[id]', description: 'Comma-separated STIX ids.', schema: { type: 'string' } },
  {
    name: 'match[type]',
    description:
      'Comma-separated STIX types (indicator, identity, marking-definition, extension-definition).',
    schema: { type: 'string' },
  },
  {
    name: 'match[version]',
    description: 'last (default), first, all, or a version time.',
    schema: { type: 'string' },
  },
  { name: 'match[spec_version]', description: '2.1.', schema: { type: 'string' } },
];
const taxiiOk = (description: string, schema: JsonSchema, paged = false): RouteDoc['ok'] => ({
  status: 200,
  description: `${description} Content-Type ${TAXII_MEDIA}; ETag, and 304 on If-None-Match.`,
  contentType: TAXII_MEDIA,
  schema,
  headers: paged
    ? {
        ETag: 'SHA-256 of the answer.',
        'X-TAXII-Date-Added-First': 'date_added of the first object of the page.',
        'X-TAXII-Date-Added-Last':
          'date_added of the last object of the page (use it as the next added_after).',
      }
    : { ETag: 'SHA-256 of the answer.' },
});
const taxiiErrors = {
  304: 'Not modified.',
  404: 'No such collection or object.',
  406: `Accept does not allow ${TAXII_MEDIA}.`,
};
const envelope: JsonSchema = {
  type: 'object',
  required: ['more'],
  properties: {
    more: { type: 'boolean' },
    next: { type: 'string' },
    objects: { type: 'array', items: object('STIX 2.1 object') },
  },
};

/** TAXII 2.1 (issue 34): read-only, one API root, one collection of the public indicators. */
const TAXII_DOCS: Record<string, RouteDoc> = {
  'GET /taxii2': {
    summary: 'TAXII 2.1 discovery',
    description: 'The TAXII server: its one API root. Send `Accept: application/taxii+json;version=2.1`.',
    tag: 'Feeds',
    access: 'public',
    ok: taxiiOk('The discovery resource.', object('TAXII discovery: title, default, api_roots')),
    errors: taxiiErrors,
  },
  'GET /taxii2/scamcheck': {
    summary: 'TAXII 2.1 API root',
    tag: 'Feeds',
    access: 'public',
    ok: taxiiOk('The API root resource.', object('TAXII API root: title, versions, max_content_length')),
    errors: taxiiErrors,
  },
  'GET /taxii2/scamcheck/collections': {
    summary: 'TAXII 2.1 collections',
    tag: 'Feeds',
    access: 'public',
    ok: taxiiOk('The one collection (read-only).', object('{collections: [collection]}')),
    errors: taxiiErrors,
  },
  'GET /taxii2/scamcheck/collections/:id': {
    summary: 'TAXII 2.1 collection',
    tag: 'Feeds',
    access: 'public',
    ok: taxiiOk('The collection.', object('TAXII collection: id, title, can_read, can_write, media_types')),
    errors: taxiiErrors,
  },
  'GET /taxii2/scamcheck/collections/:id/objects': {
    summary: 'TAXII 2.1 objects: verified scam indicators (STIX 2.1, TLP:CLEAR), paged',
    description:
      'STIX 2.1 objects oldest first: ScamCheck identity, TLP marking and extension definition, then one indicator per listed link, domain or crypto address (revoked when no longer listed). Poll with added_after set to the X-TAXII-Date-Added-Last of your last page; follow `next` while `more` is true.',
    tag: 'Feeds',
    access: 'public',
    query: taxiiPaging,
    ok: taxiiOk('An envelope: more, next, objects.', envelope, true),
    errors: taxiiErrors,
  },
  'GET /taxii2/scamcheck/collections/:id/objects/:objectId': {
    summary: 'TAXII 2.1 object by id',
    tag: 'Feeds',
    access: 'public',
    ok: taxiiOk('An envelope with the object.', envelope),
    errors: taxiiErrors,
  },
  'GET /taxii2/scamcheck/collections/:id/manifest': {
    summary: 'TAXII 2.1 manifest, paged as objects',
    tag: 'Feeds',
    access: 'public',
    query: taxiiPaging,
    ok: taxiiOk('Manifest records: id, date_added, version, media_type.', envelope, true),
    errors: taxiiErrors,
  },
};

/** Every route's documentation, keyed as the router lists it (`METHOD /path/:param`). */
export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /openapi.json': {
    summary: 'This OpenAPI document',
    tag: 'Meta',
    access: 'public',
    ok: { status: 200, description: 'The OpenAPI 3.1 document of /api/v1.', schema: object('OpenAPI 3.1') },
  },
  'POST /auth/register': {
    summary: 'Register an account',
    description:
      'Sends a confirmation code and link by e-mail. An address that already has an account gets the same answer, and its owner is e-mailed instead.',
    tag: 'Auth',
    access: 'public',
    body: registerSchema,
    ok: { status: 201, description: 'Registered; confirm the e-mailed code or link.' },
  },
  'POST /auth/login': {
    summary: 'Log in with e-mail and password',
    description: 'Answers the session token and sets the session cookies.',
    tag: 'Auth',
    access: 'public',
    body: loginSchema,
    ok: { status: 200, description: 'Signed in: `{user, token}`.' },
    errors: { 401: 'Wrong e-mail or password.' },
  },
  'GET /auth/logout': {
    summary: 'Log out (this device)',
    tag: 'Auth',
    access: 'public',
    ok: { status: 200, description: 'Signed out; the session cookies are cleared.' },
    errors: { 403: 'A cross-site request.' },
  },
  'POST /auth/logout': {
    summary: 'Log out (this device)',
    tag: 'Auth',
    access: 'public',
    ok: { status: 200, description: 'Signed out; the session cookies are cleared.' },
    errors: { 403: 'A cross-site request.' },
  },
  'GET /verify/:code': {
    summary: 'Confirm an e-mail address with the e-mailed link',
    tag: 'Auth',
    access: 'public',
    ok: { status: 200, description: 'Confirmed and signed in.' },
    errors: { 401: 'A wrong or expired code.' },
  },
  'GET /users/current-user': {
    summary: 'The signed-in user',
    tag: 'Users',
    access: 'user',
    ok: { status: 200, description: '`{user}`.' },
  },
  'PATCH /users/update-user': {
    summary: 'Change the signed-in user’s name or e-mail',
    tag: 'Users',
    access: 'user',
    body: updateUserSchema,
    files: ['avatar'],
    ok: { status: 200, description: '`{user}`.' },
  },
  'GET /users/admin/app-stats': {
    summary: 'Site-wide counts for admins',
    tag: 'Admin',
    access: 'admin',
    ok: { status: 200, description: 'Counts of users, reports, searches and visits.' },
  },
  'GET /reports': {
    summary: 'The signed-in user’s reports',
    tag: 'Reports',
    access: 'user',
    query: pageQuery,
    ok: { status: 200, description: '`{reports, totalReports, numOfPages}`.' },
  },
  'POST /reports': {
    summary: 'File a report',
    description:
      '`reportedAccountType` is one of `mobile no.`, `email`, `ewallet`, `crypto`, `website` and, since issue 30, `social` (a social media or chat account: the link to a Facebook page, profile, group or Marketplace item, a Messenger, Instagram, TikTok, X, YouTube or Telegram account, a WhatsApp group, a Shopee or Lazada shop, a Google Form or Site or a Linktree). A `website` that is such a link is stored as `social`, and a WhatsApp or Viber chat link as the `mobile` number it opens; a platform itself (`facebook.com`, `bit.ly`, `vercel.app`) cannot be reported. The legacy field names are unchanged.',
    tag: 'Reports',
    access: 'user',
    body: createReportSchema,
    files: ['evidence'],
    ok: { status: 201, description: '`{report}`.' },
    errors: { 409: 'You reported this identifier recently; `existingReportId` names that report.' },
  },
  'GET /reports/stats': {
    summary: 'The signed-in user’s report counts',
    tag: 'Reports',
    access: 'user',
    ok: { status: 200, description: 'Counts by status and by month.' },
  },
  'GET /reports/:id': {
    summary: 'One of the signed-in user’s reports',
    tag: 'Reports',
    access: 'user',
    ok: { status: 200, description: '`{report}`.' },
    errors: { 404: 'No such report of yours.' },
  },
  'PATCH /reports/:id': {
    summary: 'Change one of the signed-in user’s reports',
    tag: 'Reports',
    access: 'user',
    body: updateReportSchema,
    files: ['evidence'],
    ok: { status: 200, description: '`{report}`.' },
    errors: { 404: 'No such report of yours.' },
  },
  'DELETE /reports/:id': {
    summary: 'Delete one of the signed-in user’s reports',
    tag: 'Reports',
    access: 'user',
    ok: { status: 200, description: 'Deleted.' },
    errors: { 404: 'No such report of yours.' },
  },
  'POST /search': {
    summary: 'Validate a search (the old client’s first step)',
    description: 'Validates and acknowledges; GET /search/{searchString} runs and records the search.',
    tag: 'Search',
    access: 'public',
    body: searchSchema,
    ok: { status: 200, description: '`{msg, searchString, next}`.' },
  },
  'GET /search/:id': {
    summary: 'Search an identifier',
    description:
      'Any mobile number, e-mail, website, short link (`bit.ly/abc`), social media or chat account link (`facebook.com/PageName`, `t.me/name`), e-wallet or crypto address, however written or pasted (invisible marks, full-width digits, dashes and defanged links are read). Signed-in callers see more of each report. Each search is logged; the search.ip and search.user limits apply besides the API limit.',
    tag: 'Search',
    access: 'public',
    ok: {
      status: 200,
      description: 'The reports and the risk.',
      schema: {
        type: 'object',
        required: ['searchString', 'count', 'reports', 'summary', 'points'],
        properties: {
          searchString: { type: 'string' },
          count: { type: 'integer' },
          reports: { type: 'array', items: { type: 'object' } },
          summary: {
            type: 'object',
            properties: {
              numberOfReports: { type: 'integer' },
              lastReportedVictimCountry: { type: ['string', 'null'] },
              riskPercentage: { type: 'integer', minimum: 0, maximum: 100 },
              riskLevel: { enum: ['low', 'medium', 'high'] },
              estimatedAmountLost: {
                type: 'number',
                description:
                  'Sum over verified reports; 0 while fewer than 5 verified reports give an amount (amountShown false).',
              },
              amountShown: { type: 'boolean' },
              verifiedReports: { type: 'integer' },
              pendingReports: { type: 'integer' },
              riskNote: {
                type: ['string', 'null'],
                description:
                  '"Reported N times, not yet reviewed" when every report is pending: such a risk is never high.',
              },
            },
          },
          points: { type: 'array', items: { type: 'string', description: '"lat,lng"' } },
          ownerStatements: OWNER_STATEMENTS_SCHEMA,
        },
      },
    },
  },
  'POST /check-message': {
    summary: 'Check a whole message',
    description:
      'Finds every identifier in a text, chat or e-mail (numbers, links, e-mails, wallet addresses, and social media or chat accounts: item `type` `social`; phone numbers carry `phoneKind` mobile, landline, freephone or international) and answers each with its reports and warning signs; `textSignals` lists what the words say (named rules with the words that triggered them); and a verdict. At most 5,000 characters, counted as code points.',
    tag: 'Search',
    access: 'public',
    bodySchema: {
      type: 'object',
      required: ['text'],
      properties: { text: { type: 'string', minLength: 1, maxLength: 5000 } },
    },
    ok: {
      status: 200,
      description:
        '`{items, textSignals, verdict}`. Each item carries `ownerStatements` (added in issue 32): the answer of its verified owner, as in search answers.',
      schema: {
        type: 'object',
        required: ['items', 'textSignals', 'verdict'],
        properties: {
          items: {
            type: 'array',
            items: {
              type: 'object',
              required: ['type', 'value', 'canonical', 'count', 'riskLevel', 'signals', 'ownerStatements'],
              properties: {
                type: { type: 'string' },
                value: { type: 'string' },
                canonical: { type: 'string' },
                forms: { type: 'array', items: { type: 'string' } },
                count: { type: 'integer' },
                riskLevel: { enum: ['low', 'medium', 'high'] },
                riskPercentage: { type: 'integer' },
                valid: { type: 'boolean' },
                phoneKind: { enum: ['mobile', 'landline', 'freephone', 'international'] },
                network: { type: 'string' },
                signals: { type: 'array', items: { type: 'object' } },
                ownerStatements: OWNER_STATEMENTS_SCHEMA,
              },
            },
          },
          textSignals: { type: 'array', items: { type: 'object' } },
          verdict: { type: 'object' },
        },
      },
    },
    errors: { 413: 'Over 5,000 characters.' },
  },
  'GET /range/:prefix': {
    summary: 'Check identifiers privately (range lookup)',
    description:
      'prefix is the first 5 hex characters of the SHA-256 (lower-case hex) of the identifier’s canonical form. The answer lists the rest of the hash of every reported identifier with that prefix, with its report count and risk as search computes them, padded with decoys (count 0) to a multiple of 32 entries of one width, so neither the prefix nor the answer’s size tells which identifier was meant. Not logged. Cacheable: Cache-Control and ETag; If-None-Match gives 304.',
    tag: 'Search',
    access: 'public',
    ok: {
      status: 200,
      description: 'The entries of the range, sorted by suffix.',
      headers: { ETag: 'A validator for If-None-Match.', 'Cache-Control': 'public, max-age=300.' },
      schema: {
        type: 'object',
        required: ['prefix', 'entries'],
        properties: {
          prefix: { type: 'string', pattern: '^[0-9a-f]{5}$' },
          entries: {
            type: 'array',
            items: {
              type: 'object',
              required: ['suffix', 'count', 'risk_level', 'risk_label'],
              properties: {
                suffix: { type: 'string', pattern: '^[0-9a-f]{59}$' },
                count: { type: 'integer', minimum: 0 },
                risk_level: { type: 'integer', minimum: 0, maximum: 100 },
                risk_label: { enum: ['low', 'medium', 'high'] },
              },
            },
          },
        },
      },
    },
    errors: { 304: 'Not modified (If-None-Match matched the ETag).' },
  },
  'GET /visitor': {
    summary: 'Record a page view',
    tag: 'Visitors',
    access: 'public',
    ok: { status: 200, description: 'Recorded.' },
  },
  'POST /visitor/contact': {
    summary: 'Send a message to the team',
    tag: 'Visitors',
    access: 'public',
    body: contactSchema,
    ok: { status: 201, description: 'Sent.' },
  },
  'GET /news/frontpage': {
    summary: 'The newest articles for the home page',
    tag: 'News',
    access: 'public',
    ok: { status: 200, description: '`{news}`.' },
  },
  'GET /news': {
    summary: 'All articles, newest first',
    tag: 'News',
    access: 'public',
    query: pageQuery,
    ok: { status: 200, description: '`{news}`.' },
  },
  'POST /news/addnews': {
    summary: 'Publish an article',
    tag: 'News',
    access: 'admin',
    body: newsSchema,
    files: ['image'],
    ok: { status: 201, description: '`{news}`.' },
  },
  'GET /news/:id': {
    summary: 'One article',
    tag: 'News',
    access: 'public',
    ok: { status: 200, description: '`{news, related}`.' },
    errors: { 404: 'No such article.' },
  },
  'POST /notify': {
    summary: 'Watch identifiers (Notify Me)',
    tag: 'Notify Me',
    access: 'user',
    body: notifySchema,
    ok: { status: 201, description: 'The identifiers now watched.' },
  },
  'GET /notify': {
    summary: 'The identifiers the signed-in user watches',
    tag: 'Notify Me',
    access: 'user',
    ok: { status: 200, description: '`{registrations}`.' },
  },
  'DELETE /notify/:id': {
    summary: 'Stop watching an identifier',
    tag: 'Notify Me',
    access: 'user',
    ok: { status: 200, description: 'Removed.' },
    errors: { 404: 'No such registration of yours.' },
  },
  'POST /removal-requests': {
    summary: 'Ask for a report to be removed',
    description:
      'Nothing reaches the reporter until the requester confirms their address by the e-mailed link.',
    tag: 'Removal requests',
    access: 'public',
    body: removalRequestSchema,
    ok: { status: 201, description: 'Requested; confirm by the e-mailed link.' },
    errors: { 409: 'An open request for this report already exists.' },
  },
  'GET /removal-requests': {
    summary: 'Removal requests about the signed-in user’s reports',
    description:
      'The caller’s own requests with the contact e-mail they gave, and the confirmed requests about their reports without it (`contactEmail` null: only the requester and admins read it).',
    tag: 'Removal requests',
    access: 'user',
    ok: { status: 200, description: '`{requests}`.' },
  },
  'POST /removal-requests/:id/response': {
    summary: 'Answer a removal request (the reporter)',
    tag: 'Removal requests',
    access: 'user',
    body: removalResponseSchema,
    ok: { status: 200, description: 'Answered.' },
    errors: { 404: 'No such request about your reports.' },
  },
  'GET /removal-requests/:id/confirm': {
    summary: 'Confirm a removal request (the e-mailed link)',
    tag: 'Removal requests',
    access: 'public',
    query: [{ name: 'token', description: 'The token from the e-mail.', schema: { type: 'string' } }],
    ok: { status: 200, description: 'Confirmed.' },
    errors: { 404: 'No such request, or a wrong token.' },
  },
  ...TAXII_DOCS,
  'GET /feeds/partner/:file': {
    summary: 'Partner feed file (TLP:AMBER): indicators.csv, indicators.json or list.txt',
    description:
      'Verified scam mobile numbers, e-wallet accounts and e-mail addresses (personal data under the Data Privacy Act), in the same formats as the public feeds. Only for API keys an admin has marked as a partner (a bank, e-wallet, telco or CERT); every download is logged with the key, the time and the number of identifiers. ETag and If-None-Match (304) as for the public files. See /developers#feeds.',
    tag: 'Feeds',
    access: 'partner',
    ok: {
      status: 200,
      description: 'The file (text/csv, application/json or text/plain).',
      headers: {
        ETag: 'SHA-256 of the file.',
        'X-Feed-Items': 'Identifiers the file lists.',
        'X-TLP': 'AMBER.',
      },
    },
    errors: { 304: 'Not modified since the ETag sent in If-None-Match.', 404: 'No such file (yet).' },
  },
  'GET /feeds/partner/:dir/:file': {
    summary: 'Partner MISP feed and STIX bundles (TLP:AMBER)',
    description:
      'misp/manifest.json and misp/{event uuid}.json (a MISP feed: point a MISP instance at /feeds/partner/misp with the X-API-Key header), stix/index.json and stix/{YYYY-MM}.json (STIX 2.1 bundles, one per month). Partner keys only; every download is logged.',
    tag: 'Feeds',
    access: 'partner',
    ok: {
      status: 200,
      description: 'The file (application/json).',
      headers: {
        ETag: 'SHA-256 of the file.',
        'X-Feed-Items': 'Identifiers the file lists.',
        'X-TLP': 'AMBER.',
      },
    },
    errors: { 304: 'Not modified since the ETag sent in If-None-Match.', 404: 'No such file (yet).' },
  },
};

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['msg'],
  properties: { msg: { type: 'string', description: 'What went wrong, readable as is.' } },
};

const limitHeaders = {
  'RateLimit-Limit': { description: 'Calls allowed in the window.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Calls left right now.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the bucket is full again.', schema: { type: 'integer' } },
  'RateLimit-Policy': { description: '`<limit>;w=<window seconds>`.', schema: { type: 'string' } },
};

/** A zod schema as JSON Schema for what callers send (io: input), with unrepresentable parts open. */
function inputSchema(schema: z.ZodType): JsonSchema {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  delete (out as JsonSchema).$schema;
  return out as JsonSchema;
}

function requestBody(doc: RouteDoc): JsonSchema | undefined {
  const schema = doc.body ? inputSchema(doc.body) : doc.bodySchema;
  if (!schema) return undefined;
  const multipart = doc.files?.length
    ? {
        ...schema,
        properties: {
          ...((schema.properties as JsonSchema) ?? {}),
          ...Object.fromEntries(
            doc.files.map((f) => [
              f,
              {
                type: 'string',
                contentMediaType: 'image/*',
                description: 'An image, at most 500,000 bytes.',
              },
            ]),
          ),
        },
      }
    : schema;
  return {
    required: true,
    content: {
      'application/json': { schema },
      'application/x-www-form-urlencoded': { schema },
      'multipart/form-data': { schema: multipart },
    },
  };
}

/** `/reports/:id` -> `/reports/{id}`, and the names of its parameters. */
export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const out = path.replace(/:([A-Za-z_]\w*)/g, (_m, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: out, params };
}

function operationId(method: string, path: string): string {
  const words = path
    .split(/[/{}:.-]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join('');
}

function operation(method: string, path: string, doc: RouteDoc, params: string[]): JsonSchema {
  const responses: Record<string, JsonSchema> = {
    [doc.ok.status]: {
      description: doc.ok.description,
      headers: { ...limitHeaders, ...(doc.ok.headers ? headersOf(doc.ok.headers) : {}) },
      content: doc.ok.schema
        ? { [doc.ok.contentType ?? 'application/json']: { schema: doc.ok.schema } }
        : undefined,
    },
    400: { $ref: '#/components/responses/BadRequest' },
    401: {
      description:
        doc.access === 'public'
          ? 'An unknown, malformed or revoked API key.'
          : 'Not signed in, an expired session, or a bad API key.',
      content: { 'application/json': { schema: errorSchema } },
    },
    429: { $ref: '#/components/responses/TooManyRequests' },
  };
  if (doc.access === 'admin')
    responses[403] = {
      description: 'Admins only.',
      content: { 'application/json': { schema: errorSchema } },
    };
  if (doc.access === 'partner') {
    responses[401] = {
      description: 'No API key, or an unknown, malformed or revoked one.',
      content: { 'application/json': { schema: errorSchema } },
    };
    responses[403] = {
      description: 'The API key is not marked as a partner key.',
      content: { 'application/json': { schema: errorSchema } },
    };
  }
  for (const [status, description] of Object.entries(doc.errors ?? {}))
    responses[status] =
      Number(status) < 400
        ? { description }
        : { description, content: { 'application/json': { schema: errorSchema } } };
  const body = requestBody(doc);
  return {
    operationId: operationId(method, path),
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [doc.tag],
    security:
      doc.access === 'public'
        ? [{}, { apiKeyHeader: [] }, { apiKeyBearer: [] }]
        : doc.access === 'partner'
          ? [{ apiKeyHeader: [] }, { apiKeyBearer: [] }]
          : [{ session: [] }, { sessionCookie: [] }],
    parameters: [
      ...params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...(doc.query ?? []).map((q) => ({ ...q, in: 'query', required: false })),
    ],
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

function headersOf(headers: Record<string, string>): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
  );
}

/** Where the public feed files are: the `feeds` bucket's public addresses next to the API's server. */
function feedBase(serverUrl: string): string {
  const origin = serverUrl.replace(/\/functions\/v1\/api\/v1$/, '').replace(/\/api\/v1$/, '');
  return `${origin}/storage/v1/object/public/feeds/clear`;
}

/**
 * The document for a router's routes (`METHOD /path/:param` as Router.list() gives them). Throws when
 * a route has no entry in `docs` or an entry names no served route.
 */
export function buildOpenApi(
  routes: { method: string; path: string }[],
  docs: Record<string, RouteDoc> = ROUTE_DOCS,
  serverUrl = '/api/v1',
): JsonSchema {
  const served = new Set(routes.map((r) => `${r.method} ${r.path}`));
  const undocumented = [...served].filter((r) => !docs[r]);
  const unserved = Object.keys(docs).filter((r) => !served.has(r));
  if (undocumented.length || unserved.length)
    throw new Error(
      `OpenAPI and router disagree: undocumented ${undocumented.join(', ') || '-'}; not served ${unserved.join(', ') || '-'}`,
    );
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const { method, path } of routes) {
    const { path: p, params } = openApiPath(path);
    (paths[p] ??= {})[method.toLowerCase()] = operation(method, p, docs[`${method} ${path}`], params);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'ScamCheck API',
      version: '1.0.0',
      description: `Check whether a mobile number, e-mail, website, e-wallet or crypto address has been reported for scams, and report one. Every call answers JSON; errors are \`{"msg": "..."}\`. Anonymous callers are limited per address; callers with an API key (made on the dashboard's API keys page, \`${API_KEY_PREFIX}\` and 64 hex characters) per key, with a higher limit. See /developers.`,
      license: { name: 'Data: CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' },
    },
    tags: [
      {
        name: 'Feeds',
        description: `Threat-intelligence feeds of verified scam identifiers (see /developers#feeds). The public (TLP:CLEAR) files are static, rebuilt hourly, with ETag and Last-Modified: ${feedBase(serverUrl)}/indicators.csv (URLhaus-style CSV with a '#' header), indicators.json, list.txt (one URL or domain a line), misp/manifest.json with misp/{event uuid}.json (a MISP feed), stix/index.json with stix/{YYYY-MM}.json (STIX 2.1 bundles, one per month). TAXII 2.1 and the partner (TLP:AMBER) files are below.`,
      },
    ],
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: {
        apiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'An API key: a higher limit.',
        },
        apiKeyBearer: {
          type: 'http',
          scheme: 'bearer',
          description: `The same API key as \`Authorization: Bearer ${API_KEY_PREFIX}...\`.`,
        },
        session: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The session token from POST /auth/login.',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'The session cookie set at login.',
        },
      },
      responses: {
        BadRequest: {
          description: 'Input that is not valid; `msg` names the field and the problem. Nothing was changed.',
          content: { 'application/json': { schema: errorSchema } },
        },
        TooManyRequests: {
          description: 'Over a limit. Wait for Retry-After seconds; `retryAt` is when, as a UTC time.',
          headers: {
            ...limitHeaders,
            'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
          },
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['msg'],
                properties: {
                  msg: { type: 'string' },
                  retryAfter: { type: 'integer' },
                  retryAt: { type: 'string', format: 'date-time' },
                },
              },
            },
          },
        },
      },
    },
  };
}
