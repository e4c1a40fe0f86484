import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, toastError } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { useUser } from '@/lib/auth';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';
import {
  useAdminUsers,
  useSetSuspension,
  useSuspensionLog,
  type AdminUser,
  type UserFilters,
} from '@/features/admin/api/users';

const selectClass =
  'border-input bg-background dark:bg-input/30 h-9 w-full min-w-0 rounded-md border px-2 text-sm shadow-xs focus-visible:ring-ring/50 focus-visible:ring-[3px] outline-none';

/** Suspend (with a duration) or unsuspend one account, with a reason for the log. */
function SuspendDialog({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const { t } = useTranslation('adminUsers');
  const suspend = !user.suspended_until;
  const [reason, setReason] = useState('');
  const [days, setDays] = useState<string>('7');
  const [invalid, setInvalid] = useState(false);
  const set = useSetSuspension();
  const confirm = () => {
    const text = reason.trim();
    if (text.length < 3 || text.length > 500) return setInvalid(true);
    set.mutate(
      { userId: user.id, suspend, reason: text, days: suspend && days ? Number(days) : null },
      {
        onSuccess: () => {
          toast.success(suspend ? t('suspended') : t('unsuspended'));
          onClose();
        },
        onError: (error) => void toastError(error),
      },
    );
  };
  const who = user.email ?? user.id;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle className="break-all">
            {suspend ? t('suspendAbout', { email: who }) : t('unsuspendAbout', { email: who })}
          </DialogTitle>
          <DialogDescription>{suspend ? t('suspendText') : t('unsuspendText')}</DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-2">
          <Label htmlFor="suspension-reason">{t('reason')}</Label>
          <Textarea
            id="suspension-reason"
            rows={3}
            maxLength={500}
            value={reason}
            aria-invalid={invalid}
            onChange={(e) => {
              setReason(e.target.value);
              setInvalid(false);
            }}
          />
          {invalid && <p className="text-destructive text-sm">{t('reasonInvalid')}</p>}
          {suspend && (
            <label className="flex flex-col gap-1 text-sm font-medium">
              {t('duration')}
              <select className={selectClass} value={days} onChange={(e) => setDays(e.target.value)}>
                <option value="7">{t('days7')}</option>
                <option value="30">{t('days30')}</option>
                <option value="">{t('indefinitely')}</option>
              </select>
            </label>
          )}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button variant={suspend ? 'destructive' : 'default'} onClick={confirm} disabled={set.isPending}>
            {suspend ? t('confirmSuspend') : t('confirmUnsuspend')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function UserItem({ user, self, onSuspend }: { user: AdminUser; self: boolean; onSuspend: () => void }) {
  const { t } = useTranslation('adminUsers');
  return (
    <li className="flex flex-wrap items-start gap-x-4 gap-y-2 px-4 py-3" data-testid="admin-user">
      <div className="min-w-0 flex-1 basis-56">
        <p className="font-medium break-words">
          {user.name || '—'}{' '}
          <Badge variant={user.is_admin ? 'default' : 'secondary'}>
            {user.is_admin ? t('admin') : t('user')}
          </Badge>
        </p>
        <p className="text-muted-foreground text-sm break-all">{user.email ?? user.id}</p>
        <p className="text-muted-foreground text-xs">{t('joined', { date: formatDate(user.created_at) })}</p>
      </div>
      <div className="min-w-0 flex-1 basis-56 text-sm">
        <p>
          {t('reportCounts', {
            filed: user.reports_filed,
            verified: user.reports_verified,
            rejected: user.reports_rejected,
            removed: user.reports_removed,
          })}
        </p>
        {user.suspended_until ? (
          <div className="text-destructive" data-testid="suspension">
            <p className="font-medium">{t('suspendedUntil', { date: formatDate(user.suspended_until) })}</p>
            {user.suspension_reason && (
              <p className="break-words">{t('suspendedReason', { reason: user.suspension_reason })}</p>
            )}
          </div>
        ) : (
          <p className="text-muted-foreground">{t('active')}</p>
        )}
      </div>
      {!self && !user.is_admin && (
        <Button size="sm" variant={user.suspended_until ? 'outline' : 'destructive'} onClick={onSuspend}>
          {user.suspended_until ? t('unsuspend') : t('suspend')}
        </Button>
      )}
    </li>
  );
}

function SuspensionLog() {
  const { t } = useTranslation('adminUsers');
  const log = useSuspensionLog();
  return (
    <section className="mt-8 flex flex-col gap-2" aria-labelledby="suspension-log">
      <h2 id="suspension-log" className="text-lg font-semibold">
        {t('logTitle')}
      </h2>
      {log.isError ? (
        <p className="text-destructive">{errorMessage(log.error)}</p>
      ) : !log.data ? (
        <Skeleton className="h-24" />
      ) : log.data.length === 0 ? (
        <p className="text-muted-foreground">{t('logEmpty')}</p>
      ) : (
        <ul className="divide-y rounded-md border text-sm">
          {log.data.map((e) => (
            <li key={e.id} className="px-4 py-2">
              <p className="break-words">
                {t('logEntry', {
                  account: e.user_email ?? e.user_id,
                  action: e.action === 'suspend' ? t('logSuspend') : t('logUnsuspend'),
                  actor: e.actor_email ?? '—',
                })}
              </p>
              <p className="text-muted-foreground break-words">
                {formatDate(e.created_at)} · {e.reason}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function UsersHeader() {
  const { t } = useTranslation();
  return <PageHeader title={t('admin.users.title')} />;
}

/**
 * Admins' user list (issue 31): search by name, e-mail or id; filter by role, suspension and reports
 * filed; each user's reports and their outcomes; suspend (Auth's ban, with a reason and a duration) and
 * unsuspend; the suspension log. Its texts are the lazily loaded adminUsers namespace.
 */
export function Component() {
  const { t, ready } = useTranslation('adminUsers');
  const me = useUser();
  const [filters, setFilters] = useState<UserFilters>({ search: '', role: '', state: '', minReports: null });
  const deferred = useDeferredValue(filters);
  const users = useAdminUsers(deferred);
  const [target, setTarget] = useState<AdminUser | null>(null);
  const set = <K extends keyof UserFilters>(key: K, value: UserFilters[K]) =>
    setFilters((f) => ({ ...f, [key]: value }));
  const rows = users.data?.pages.flat() ?? [];

  return (
    <>
      <BackToAdmin />
      <UsersHeader />
      {!ready ? (
        <Skeleton className="h-96 w-full" />
      ) : (
        <div className="flex flex-col gap-4">
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
            <label className="flex flex-col gap-1 text-xs font-medium">
              {t('search')}
              <Input type="search" value={filters.search} onChange={(e) => set('search', e.target.value)} />
            </label>
            <label className="flex flex-col gap-1 text-xs font-medium">
              {t('role')}
              <select
                className={selectClass}
                value={filters.role}
                onChange={(e) => set('role', e.target.value as UserFilters['role'])}
              >
                <option value="">{t('roleAny')}</option>
                <option value="admin">{t('roleAdmin')}</option>
                <option value="user">{t('roleUser')}</option>
              </select>
            </label>
            <label className="flex flex-col gap-1 text-xs font-medium">
              {t('state')}
              <select
                className={selectClass}
                value={filters.state}
                onChange={(e) => set('state', e.target.value as UserFilters['state'])}
              >
                <option value="">{t('stateAny')}</option>
                <option value="suspended">{t('stateSuspended')}</option>
                <option value="active">{t('stateActive')}</option>
              </select>
            </label>
            <label className="flex flex-col gap-1 text-xs font-medium">
              {t('minReports')}
              <Input
                type="number"
                min={0}
                inputMode="numeric"
                value={filters.minReports ?? ''}
                onChange={(e) =>
                  set(
                    'minReports',
                    e.target.value === '' ? null : Math.max(0, Math.floor(Number(e.target.value))),
                  )
                }
              />
            </label>
          </div>
          {users.isError ? (
            <p className="text-destructive">{errorMessage(users.error)}</p>
          ) : !users.data ? (
            <Skeleton className="h-96 w-full" aria-label={t('loading')} />
          ) : (
            <Card className="py-0">
              {rows.length === 0 ? (
                <p className="text-muted-foreground py-8 text-center">{t('empty')}</p>
              ) : (
                <ul className="divide-y" aria-label={t('listLabel')}>
                  {rows.map((u) => (
                    <UserItem key={u.id} user={u} self={u.id === me?.id} onSuspend={() => setTarget(u)} />
                  ))}
                </ul>
              )}
            </Card>
          )}
          {users.hasNextPage && (
            <Button
              variant="outline"
              className="self-center"
              onClick={() => void users.fetchNextPage()}
              disabled={users.isFetchingNextPage}
            >
              {t('more')}
            </Button>
          )}
          <SuspensionLog />
        </div>
      )}
      {target && <SuspendDialog user={target} onClose={() => setTarget(null)} />}
    </>
  );
}
