import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { detectIdentifierKind } from '@/lib/canonical';
import type { SearchResult } from '@/lib/search-result';
import { AfterScamChecklist } from './after-scam-checklist';
import { ComplaintPackButton } from './complaint-pack-button';

/**
 * The results page's "what to do now" (issue 33), rendered below the summary: for an identifier with
 * verified reports, the checklist; for any identifier with reports, the complaint pack for a victim
 * who has not filed. It runs no search of its own: the page hands it the answer it shows (the route
 * composes the search feature and this one), so nothing is fetched or logged twice.
 */
export function AfterScamHelp({
  searchString,
  result: data,
}: {
  searchString: string;
  result: SearchResult;
}) {
  const { t } = useTranslation();
  if (data.count === 0) return null;
  const verified = data.reports.some((r) => r.status === 'verified');
  const kind = detectIdentifierKind(searchString) ?? 'website';
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t(verified ? 'afterScam.title' : 'afterScam.packOnlyTitle')}</CardTitle>
        <CardDescription>
          {t(verified ? 'afterScam.resultsIntro' : 'afterScam.packOnlyIntro')}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {verified && <AfterScamChecklist />}
        <ComplaintPackButton source={{ identifiers: [{ kind, written: searchString }] }} className="w-fit" />
      </CardContent>
    </Card>
  );
}
