import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { Trans, useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import type { SearchReport } from '@/lib/search-result';

// Signed-in users only: the form and its validation are a chunk of their own (removal-request-form.tsx).
const RemovalRequestForm = lazy(() => import('./removal-request-form'));

/**
 * "This report is wrong / I own this identifier" on the results page (issue 31): files the removal
 * request the legacy API files (its contact address confirmed by an e-mailed link), and lists the
 * user's requests for these reports with the admins' decision and reason (both in
 * removal-request-form.tsx, loaded for a signed-in user only).
 */
export function RemovalRequest({ reports, returnTo }: { reports: SearchReport[]; returnTo: string }) {
  const { t } = useTranslation();
  const user = useUser();
  const withIds = reports.filter((r): r is SearchReport & { id: string } => !!r.id);

  return (
    <Card data-testid="removal-request-card">
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{t('removal.title')}</h2>
        </CardTitle>
        <CardDescription>{t('removal.description')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 text-sm">
        <p data-testid="owner-reply-link">
          <Trans
            i18nKey="removal.owner"
            components={{
              prove: (
                <Link
                  to={paths.dashboard.ownership.getHref()}
                  className="text-primary font-medium underline underline-offset-4"
                />
              ),
            }}
          />
        </p>
        {!user ? (
          <p>
            <Trans
              i18nKey="removal.signIn"
              components={{
                login: (
                  <Link
                    to={paths.auth.login.getHref(returnTo)}
                    className="text-primary underline underline-offset-4"
                  />
                ),
              }}
            />
          </p>
        ) : withIds.length === 0 ? (
          <p className="text-muted-foreground">{t('removal.noReports')}</p>
        ) : (
          <Suspense fallback={null}>
            <RemovalRequestForm user={user} reports={withIds} />
          </Suspense>
        )}
      </CardContent>
    </Card>
  );
}
