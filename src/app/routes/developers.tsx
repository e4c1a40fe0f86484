import { Link } from 'react-router-dom';
import { Trans, useTranslation } from 'react-i18next';
import { StaticPage } from '@/components/static-page';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { API_BASE, OPENAPI_URL, useApiOperations, type ApiOperation } from '@/features/developers/api';
import { openDataFiles } from '@/features/public-stats/api/open-data';
import { RangeDemo } from '@/features/developers/range-demo';
import { FeedsSection } from '@/features/developers/feeds-section';

/** The samples are code and the API's own (English) answers: the same in every language. */
const samples = {
  search: `curl ${API_BASE}/search/09171234567`,
  keyHeaders: `curl -H "X-API-Key: sck_..." ${API_BASE}/search/09171234567
curl -H "Authorization: Bearer sck_..." ${API_BASE}/search/09171234567`,
  tooMany: `HTTP/1.1 429 Too Many Requests
Retry-After: 1
RateLimit-Limit: 120
RateLimit-Remaining: 0

{"msg": "Too many API requests from your address: at most 120 per 1 minute. Please try again in 1 second. You can call again at 2026-11-23T23:40:12Z.", "retryAfter": 1, "retryAt": "2026-11-23T23:40:12Z"}`,
  range: `# 0917 123 4567 -> +639171234567
hash=$(printf '%s' '+639171234567' | sha256sum | cut -c1-64)
curl -H "X-API-Key: sck_..." ${API_BASE}/range/\${hash:0:5} | grep "\${hash:5}"`,
  errorShape: '{"msg": "..."}',
  clientCall: 'lookupIdentifierPrivately(value, { apiBase })',
};

/** A code sample, wrapped (not scrolled) on narrow screens. */
function Code({ children }: { children: string }) {
  return (
    <pre className="bg-muted rounded-md break-all whitespace-pre-wrap p-3 font-mono text-xs leading-relaxed sm:text-sm">
      <code>{children}</code>
    </pre>
  );
}

function OperationList({ operations }: { operations: ApiOperation[] }) {
  const { t } = useTranslation();
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
                    {o.access === 'signed in' && t('developers.operations.signedIn')}
                  </span>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

/** The public developer page (issue 14): how to call /api/v1, keys, limits, the feeds (issue 34) and the open data. */
export function Component() {
  const { t } = useTranslation();
  const operations = useApiOperations();
  const code = <code />;
  return (
    <StaticPage title={t('developers.title')} lead={t('developers.lead')}>
      <h2>{t('developers.calling.title')}</h2>
      <p>
        <Trans
          i18nKey="developers.calling.text"
          values={{ base: API_BASE, errorShape: samples.errorShape }}
          components={{ base: <code className="break-all" />, code, openapi: <a href={OPENAPI_URL} /> }}
        />
      </p>
      <Code>{samples.search}</Code>

      <h2>{t('developers.keys.title')}</h2>
      <p>
        <Trans
          i18nKey="developers.keys.text"
          components={{ keys: <Link to={paths.dashboard.apiKeys.getHref()} /> }}
        />
      </p>
      <Code>{samples.keyHeaders}</Code>
      <p>{t('developers.keys.session')}</p>

      <h2>{t('developers.limits.title')}</h2>
      <ul>
        <li>{t('developers.limits.anonymous')}</li>
        <li>{t('developers.limits.withKey')}</li>
        <li>{t('developers.limits.own')}</li>
      </ul>
      <p>
        <Trans i18nKey="developers.limits.headers" components={{ code }} />
      </p>
      <Code>{samples.tooMany}</Code>

      <h2>{t('developers.range.title')}</h2>
      <p>{t('developers.range.intro')}</p>
      <ol>
        <li>
          <Trans i18nKey="developers.range.step1" components={{ code }} />
        </li>
        <li>{t('developers.range.step2')}</li>
        <li>
          <Trans i18nKey="developers.range.step3" components={{ code }} />
        </li>
        <li>
          <Trans i18nKey="developers.range.step4" components={{ code }} />
        </li>
      </ol>
      <p>
        <Trans i18nKey="developers.range.answer" components={{ code }} />
      </p>
      <Code>{samples.range}</Code>
      <p>
        <Trans
          i18nKey="developers.range.client"
          values={{ call: samples.clientCall }}
          components={{ code }}
        />
      </p>
      <RangeDemo />

      <h2>{t('developers.operations.title')}</h2>
      {operations.data ? (
        <OperationList operations={operations.data} />
      ) : operations.isError ? (
        <p>
          <Trans i18nKey="developers.operations.failed" components={{ openapi: <a href={OPENAPI_URL} /> }} />
        </p>
      ) : (
        <Skeleton className="h-40" />
      )}

      <FeedsSection />

      <h2>{t('developers.openData.title')}</h2>
      <p>
        <Trans
          i18nKey="developers.openData.text"
          components={{
            csv: <a href={openDataFiles.csv} />,
            json: <a href={openDataFiles.json} />,
            statistics: <Link to={paths.statistics.getHref()} />,
          }}
        />
      </p>
    </StaticPage>
  );
}
