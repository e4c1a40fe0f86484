import { Link } from 'react-router-dom';
import { StaticPage } from '@/components/static-page';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { API_BASE, OPENAPI_URL, useApiOperations, type ApiOperation } from '@/features/developers/api';
import { openDataFiles } from '@/features/public-stats/api/open-data';
import { RangeDemo } from '@/features/developers/range-demo';

/** A code sample, wrapped (not scrolled) on narrow screens. */
function Code({ children }: { children: string }) {
  return (
    <pre className="bg-muted rounded-md break-all whitespace-pre-wrap p-3 font-mono text-xs leading-relaxed sm:text-sm">
      <code>{children}</code>
    </pre>
  );
}

function OperationList({ operations }: { operations: ApiOperation[] }) {
  const tags = [...new Set(operations.map((o) => o.tag))];
  return (
    <div className="flex flex-col gap-4">
      {tags.map((tag) => (
        <section key={tag} aria-labelledby={`ops-${tag}`}>
          <h3 id={`ops-${tag}`}>{tag}</h3>
          <ul className="!list-none !pl-0">
            {operations
              .filter((o) => o.tag === tag)
              .map((o) => (
                <li key={`${o.method} ${o.path}`} className="flex flex-wrap items-baseline gap-x-2 py-0.5">
                  <code className="bg-muted w-16 shrink-0 rounded px-1.5 text-center font-mono text-xs">
                    {o.method}
                  </code>
                  <code className="font-mono text-sm break-all">{o.path}</code>
                  <span className="text-muted-foreground text-sm">
                    {o.summary}
                    {o.access === 'signed in' && ' (signed in)'}
                  </span>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** The public developer page (issue 14): how to call /api/v1, keys, limits, and the open data. */
export function Component() {
  const operations = useApiOperations();
  return (
    <StaticPage
      title="ScamCheck for developers"
      lead="Check identifiers from your own systems, and download the reports as open data."
    >
      <h2>Calling the API</h2>
      <p>
        The API answers JSON at <code className="break-all">{API_BASE}</code>. Errors come as{' '}
        <code>{'{"msg": "..."}'}</code> with the HTTP status. Its full description is an OpenAPI 3.1 document:{' '}
        <a href={OPENAPI_URL}>openapi.json</a>, which any OpenAPI tool can read.
      </p>
      <Code>{`curl ${API_BASE}/search/09171234567`}</Code>

      <h2>API keys</h2>
      <p>
        Anyone may call the API without a key. A key gives your program a limit of its own, ten times higher.
        Make one on the <Link to={paths.dashboard.apiKeys.getHref()}>API keys</Link> page of your dashboard
        (you need a free account): it is shown once, so store it safely. Send it in either header:
      </p>
      <Code>{`curl -H "X-API-Key: sck_..." ${API_BASE}/search/09171234567
curl -H "Authorization: Bearer sck_..." ${API_BASE}/search/09171234567`}</Code>
      <p>
        A key does not sign anyone in: calls that act for a user (filing a report, for example) need that
        user’s session. Revoke a key on the same page; it stops working at once.
      </p>

      <h2>Limits</h2>
      <ul>
        <li>Without a key: 120 calls a minute from one address.</li>
        <li>With a key: 1,200 calls a minute for that key.</li>
        <li>
          Searches and changes keep their own limits per address and per account (60 searches a minute).
        </li>
      </ul>
      <p>
        Every answer carries <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code> and{' '}
        <code>RateLimit-Reset</code> (seconds until your allowance is full again). Over a limit the answer is{' '}
        <code>429</code> with <code>Retry-After</code> in seconds and a message that says when to come back:
      </p>
      <Code>{`HTTP/1.1 429 Too Many Requests
Retry-After: 1
RateLimit-Limit: 120
RateLimit-Remaining: 0

{"msg": "Too many API requests from your address: at most 120 per 1 minute. Please try again in 1 second. You can call again at 2026-11-23T23:40:12Z.", "retryAfter": 1, "retryAt": "2026-11-23T23:40:12Z"}`}</Code>

      <h2>Checking without telling us what (range lookup)</h2>
      <p>
        To check an identifier without revealing it, hash it and send only the start of the hash, as Have I
        Been Pwned does for passwords:
      </p>
      <ol>
        <li>
          Write it in its canonical form, as search does (<code>+639171234567</code> for 0917 123 4567,
          lower-case e-mails and hosts).
        </li>
        <li>Take the SHA-256 of its UTF-8 bytes as lower-case hex.</li>
        <li>
          Ask for the first 5 characters: <code>GET /range/{'{prefix}'}</code>.
        </li>
        <li>
          Look for the other 59 among the answer’s <code>suffix</code> values. An entry with count 0, or no
          entry, means not reported.
        </li>
      </ol>
      <p>
        The answer lists every reported identifier sharing those 5 characters (about one in a million of all
        hashes) with its report count and risk as search computes them, padded with decoys to 32 entries of
        one width, so neither what you send nor the answer’s size tells which identifier you meant. Range
        lookups are not logged. Answers carry <code>ETag</code> and <code>Cache-Control: max-age=300</code>;
        send <code>If-None-Match</code> to get <code>304</code>.
      </p>
      <Code>{`# 0917 123 4567 -> +639171234567
hash=$(printf '%s' '+639171234567' | sha256sum | cut -c1-64)
curl -H "X-API-Key: sck_..." ${API_BASE}/range/\${hash:0:5} | grep "\${hash:5}"`}</Code>
      <p>
        In JavaScript, ScamCheck’s own client does all four steps:{' '}
        <code>
          lookupIdentifierPrivately(value, {'{'} apiBase {'}'})
        </code>{' '}
        in <code>supabase/functions/_shared/range.ts</code>.
      </p>
      <RangeDemo />

      <h2>Every call</h2>
      {operations.data ? (
        <OperationList operations={operations.data} />
      ) : operations.isError ? (
        <p>
          The list could not be loaded right now; the <a href={OPENAPI_URL}>OpenAPI document</a> has it.
        </p>
      ) : (
        <Skeleton className="h-40" />
      )}

      <h2>Open data</h2>
      <p>
        Daily counts of reports and amounts lost for the last 365 days, by scam type, account type and status,
        are published under CC BY 4.0 (credit “ScamCheck”) at stable addresses:{' '}
        <a href={openDataFiles.csv}>reports-daily.csv</a> and{' '}
        <a href={openDataFiles.json}>reports-daily.json</a>. The charts are on the{' '}
        <Link to={paths.statistics.getHref()}>statistics page</Link>.
      </p>
    </StaticPage>
  );
}
