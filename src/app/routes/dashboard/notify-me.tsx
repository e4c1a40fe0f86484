import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useUser } from '@/lib/auth';
import { useNotifications } from '@/features/notify/api/notifications';
import { useCreateRegistrations, useRegistrations } from '@/features/notify/api/registrations';
import { NotificationList } from '@/features/notify/components/notification-list';
import { NotifyForm } from '@/features/notify/components/notify-form';
import { RegistrationList } from '@/features/notify/components/registration-list';
import { PageHeader } from '@/components/layouts/page-header';

export function Component() {
  const { t } = useTranslation();
  const user = useUser();
  const registrations = useRegistrations(user?.id);
  const notifications = useNotifications(user?.id);
  const create = useCreateRegistrations();

  return (
    <>
      <PageHeader title={t('nav.notifyMe')} description={t('notify.description')} />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">{t('notify.addTitle')}</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <NotifyForm
              isPending={create.isPending}
              onSubmit={(values, reset) =>
                create.mutate(
                  { ...values, existing: (registrations.data ?? []).map((r) => r.identifier_canonical) },
                  {
                    onSuccess: () => {
                      toast.success(t('notify.saved'));
                      reset();
                    },
                  },
                )
              }
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">{t('notify.watchingTitle')}</h2>
            </CardTitle>
            <CardDescription>{t('notify.watchingDescription')}</CardDescription>
          </CardHeader>
          <CardContent>
            {registrations.data ? (
              <RegistrationList registrations={registrations.data} />
            ) : (
              <Skeleton className="h-24" />
            )}
          </CardContent>
        </Card>
        <Card className="xl:col-span-2">
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">{t('notify.notificationsTitle')}</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            {notifications.data ? (
              <NotificationList notifications={notifications.data} />
            ) : (
              <Skeleton className="h-24" />
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
