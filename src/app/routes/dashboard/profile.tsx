import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useCurrentProfile } from '@/lib/auth';
import { useUpdateProfile } from '@/features/profile/api/update-profile';
import { ProfileForm } from '@/features/profile/components/profile-form';
import { LanguageSetting } from '@/features/profile/components/language-setting';
import { PageHeader } from '@/components/layouts/page-header';

export function Component() {
  const { t } = useTranslation();
  const profile = useCurrentProfile();
  const update = useUpdateProfile();
  return (
    <>
      <PageHeader title={t('profile.title')} description={t('profile.description')} />
      <Card className="max-w-2xl">
        <CardContent>
          {profile.data ? (
            <ProfileForm
              key={profile.data.id}
              profile={profile.data}
              isPending={update.isPending}
              onSubmit={(values, reset) =>
                update.mutate(
                  { profile: profile.data, values },
                  {
                    onSuccess: ({ pendingEmail }) => {
                      toast.success(t('profile.updated'));
                      if (pendingEmail) {
                        toast.info(t('profile.checkInbox', { email: pendingEmail }), {
                          duration: 10_000,
                        });
                      }
                      reset({ name: values.name, email: profile.data.email, avatar: undefined });
                    },
                  },
                )
              }
            />
          ) : (
            <Skeleton className="h-72 w-full" aria-label={t('profile.loading')} />
          )}
        </CardContent>
      </Card>
      <Card className="mt-6 max-w-2xl">
        <CardContent>
          <LanguageSetting />
        </CardContent>
      </Card>
    </>
  );
}
