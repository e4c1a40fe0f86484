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
  const user = useUser();
  const profile = useCurrentProfile();
  const keys = useApiKeys(user?.id);
  const isAdmin = profile.data?.isAdmin ?? false;

  return (
    <>
      <PageHeader
        title="API keys"
        description={
          <>
            Programs that call the ScamCheck API (<code className="font-mono">/api/v1</code>) with a key get a
            higher limit than anonymous callers. Send it as{' '}
            <code className="font-mono whitespace-nowrap">X-API-Key</code> or as{' '}
            <code className="font-mono whitespace-nowrap">Authorization: Bearer</code>; the{' '}
            <Link to={paths.developers.getHref()} className="text-primary underline underline-offset-4">
              developer page
            </Link>{' '}
            explains the limits.
          </>
        }
      />
      <div className="grid grid-cols-1 gap-6">
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">Create a key</h2>
            </CardTitle>
            <CardDescription>Name it after the program or person that will use it.</CardDescription>
          </CardHeader>
          <CardContent>
            <CreateApiKeyForm />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">{isAdmin ? 'All keys' : 'Your keys'}</h2>
            </CardTitle>
            {isAdmin && (
              <CardDescription>As an admin you see and can revoke every user’s keys.</CardDescription>
            )}
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
