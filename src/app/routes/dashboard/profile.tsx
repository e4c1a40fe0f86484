import { toast } from 'sonner';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useCurrentProfile } from '@/lib/auth';
import { useUpdateProfile } from '@/features/profile/api/update-profile';
import { ProfileForm } from '@/features/profile/components/profile-form';
import { PageHeader } from '@/components/layouts/page-header';

export function Component() {
  const profile = useCurrentProfile();
  const update = useUpdateProfile();
  return (
    <>
      <PageHeader
        title="Profile"
        description="Your name and avatar appear in the top bar; reports never show them."
      />
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
                      toast.success('Profile updated successfully');
                      if (pendingEmail) {
                        toast.info(
                          `Check your inbox: we sent a confirmation link to ${pendingEmail}. Your e-mail changes once you confirm it.`,
                          {
                            duration: 10_000,
                          },
                        );
                      }
                      reset({ name: values.name, email: profile.data.email, avatar: undefined });
                    },
                  },
                )
              }
            />
          ) : (
            <Skeleton className="h-72 w-full" aria-label="Loading profile" />
          )}
        </CardContent>
      </Card>
    </>
  );
}
