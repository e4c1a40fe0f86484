import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useCurrentProfile, useUser } from '@/lib/auth';
import { useApiKeys } from '@/features/api-keys/api/api-keys';
import { ApiKeyList } from '@/features/api-keys/components/api-key-list';
import { CreateApiKeyForm } from '@/features/api-keys/components/create-api-key-form';
import { PageHeader } from '@/components/layouts/page-header';

export function Component() {
  const { t } = useTranslation();
  const user = useUser();
  const profile = useCurrentProfile();
  const keys = useApiKeys(user?.id);
  const isAdmin = profile.data?.isAdmin ?? false;

  return (
    <>
      <PageHeader
        title={t('apiKeys.title')}
        description={
          <Trans
            i18nKey="apiKeys.lead"
            components={{
              code: <code className="font-mono whitespace-nowrap" />,
              // 'link' would be read as HTML's void <link> element, which takes no text.
              page: (
                <Link to={paths.developers.getHref()} className="text-primary underline underline-offset-4" />
              ),
            }}
          />
        }
      />
      <div className="grid grid-cols-1 gap-6">
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">{t('apiKeys.createTitle')}</h2>
            </CardTitle>
            <CardDescription>{t('apiKeys.createHint')}</CardDescription>
          </CardHeader>
          <CardContent>
            <CreateApiKeyForm />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">{isAdmin ? t('apiKeys.allKeys') : t('apiKeys.yourKeys')}</h2>
            </CardTitle>
            {isAdmin && <CardDescription>{t('apiKeys.adminHint')}</CardDescription>}
          </CardHeader>
          <CardContent>
            {keys.data && user ? (
              <ApiKeyList keys={keys.data} userId={user.id} />
            ) : (
              <Skeleton className="h-24" />
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
