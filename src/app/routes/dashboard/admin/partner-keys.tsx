import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Tables } from '@/types/database.types';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { formatDate } from '@/lib/format';
import { errorMessage } from '@/lib/errors';
import { useSetPartner } from '@/features/admin/api/feeds';
import { PagedList } from '@/features/admin/components/paged-list';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';

type KeyRow = Pick<
  Tables<'api_keys'>,
  | 'id'
  | 'name'
  | 'prefix'
  | 'partner_organisation'
  | 'partner_since'
  | 'revoked_at'
  | 'last_used_at'
  | 'created_at'
>;

function Partner({ row }: { row: KeyRow }) {
  const { t } = useTranslation();
  const set = useSetPartner();
  const [organisation, setOrganisation] = useState('');
  if (row.revoked_at) return <Badge variant="secondary">{t('admin.partnerKeys.revoked')}</Badge>;
  if (row.partner_organisation)
    return (
      <div className="flex flex-col items-start gap-1">
        <Badge>{row.partner_organisation}</Badge>
        {row.partner_since && (
          <span className="text-muted-foreground text-xs">
            {t('admin.partnerKeys.since', { date: formatDate(row.partner_since) })}
          </span>
        )}
        <Button
          variant="link"
          size="sm"
          className="h-auto p-0"
          disabled={set.isPending}
          onClick={() => set.mutate({ id: row.id, organisation: null })}
        >
          {t('admin.partnerKeys.unmark')}
        </Button>
      </div>
    );
  return (
    <form
      className="flex min-w-56 flex-col gap-2 sm:flex-row"
      onSubmit={(e) => {
        e.preventDefault();
        set.mutate({ id: row.id, organisation });
      }}
    >
      <Input
        value={organisation}
        onChange={(e) => setOrganisation(e.target.value)}
        maxLength={100}
        aria-label={t('admin.partnerKeys.organisationLabel', { prefix: row.prefix })}
        placeholder={t('admin.partnerKeys.organisation')}
        required
      />
      <Button type="submit" size="sm" disabled={set.isPending}>
        {t('admin.partnerKeys.mark')}
      </Button>
      {set.isError && <p className="text-destructive text-xs">{errorMessage(set.error)}</p>}
    </form>
  );
}

/** Every API key; an admin marks the keys of banks, e-wallets, telcos and CERTs as partners' (docs/feeds.md). */
export function Component() {
  const { t } = useTranslation();
  return (
    <>
      <BackToAdmin />
      <PageHeader title={t('admin.partnerKeys.title')} description={t('admin.partnerKeys.description')} />
      <PagedList<KeyRow>
        name="apiKeys"
        empty={t('admin.partnerKeys.empty')}
        columns={[
          {
            header: t('admin.columns.name'),
            cell: (r) => (
              <div>
                <p className="font-medium">{r.name}</p>
                <p className="text-muted-foreground font-mono text-xs">{r.prefix}</p>
              </div>
            ),
            className: 'align-top',
          },
          {
            header: t('admin.partnerKeys.lastUsed'),
            cell: (r) => (r.last_used_at ? formatDate(r.last_used_at) : t('admin.partnerKeys.never')),
            className: 'whitespace-nowrap align-top',
          },
          {
            header: t('admin.partnerKeys.partner'),
            cell: (r) => <Partner row={r} />,
            className: 'align-top',
          },
        ]}
      />
    </>
  );
}
