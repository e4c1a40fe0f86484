import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';
import {
  useAdminStatements,
  useHideStatement,
  useUnhideStatement,
  type AdminStatement,
} from '@/features/admin/api/owner-statements';
import { errorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format';

const REASON_MAX = 500;
type Filter = 'all' | 'shown' | 'hidden';
const filterKeys = {
  all: 'admin.ownerStatements.filter.all',
  shown: 'admin.ownerStatements.filter.shown',
  hidden: 'admin.ownerStatements.filter.hidden',
} as const;

function HideForm({ statement, onDone }: { statement: AdminStatement; onDone: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const hide = useHideStatement();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      noValidate
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const r = reason.trim();
        if (!r) return setError(t('admin.ownerStatements.reasonRequired'));
        if (r.length > REASON_MAX)
          return setError(t('admin.ownerStatements.reasonLong', { max: REASON_MAX }));
        hide.mutate(
          { id: statement.id, reason: r },
          {
            onSuccess: () => {
              toast.success(t('admin.ownerStatements.hidden'));
              onDone();
            },
            onError: (err) => setError(errorMessage(err)),
          },
        );
      }}
    >
      <Label htmlFor={`${id}-reason`}>{t('admin.ownerStatements.reason')}</Label>
      <Textarea
        id={`${id}-reason`}
        rows={2}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        aria-invalid={!!error}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
      />
      <p id={`${id}-hint`} className="text-muted-foreground text-xs">
        {t('admin.ownerStatements.reasonHint')}
      </p>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-destructive text-sm">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="destructive" size="sm" disabled={hide.isPending}>
          {t('admin.ownerStatements.hide')}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={onDone}>
          {t('removal.form.cancel')}
        </Button>
      </div>
    </form>
  );
}

function StatementRow({ statement }: { statement: AdminStatement }) {
  const { t } = useTranslation();
  const [hiding, setHiding] = useState(false);
  const unhide = useUnhideStatement();
  return (
    <li>
      <Card className="gap-3 py-4" data-testid="admin-statement">
        <CardHeader className="px-4">
          <CardTitle className="flex flex-wrap items-center gap-2 text-base">
            <span className="font-mono break-all">{statement.identifier_canonical}</span>
            {statement.hidden_at ? (
              <Badge variant="destructive">{t('admin.ownerStatements.state.hidden')}</Badge>
            ) : (
              <Badge variant="secondary">{t('admin.ownerStatements.state.shown')}</Badge>
            )}
          </CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 px-4 text-sm">
          <blockquote className="bg-muted/40 rounded-md border p-3 break-words whitespace-pre-line">
            {statement.body}
          </blockquote>
          <p className="text-muted-foreground">
            {t('admin.ownerStatements.updated', { date: formatDate(statement.updated_at) })}
          </p>
          {statement.hidden_at ? (
            <>
              <p>
                {t('admin.ownerStatements.hiddenBecause', {
                  date: formatDate(statement.hidden_at),
                  reason: statement.hidden_reason,
                })}
              </p>
              <Button
                variant="outline"
                size="sm"
                className="self-start"
                disabled={unhide.isPending}
                onClick={() =>
                  unhide.mutate(statement.id, {
                    onSuccess: () => toast.success(t('admin.ownerStatements.shownAgain')),
                    onError: (e) => toast.error(errorMessage(e), { position: 'bottom-right' }),
                  })
                }
              >
                {t('admin.ownerStatements.unhide')}
              </Button>
            </>
          ) : hiding ? (
            <HideForm statement={statement} onDone={() => setHiding(false)} />
          ) : (
            <Button variant="outline" size="sm" className="self-start" onClick={() => setHiding(true)}>
              {t('admin.ownerStatements.hide')}
            </Button>
          )}
        </CardContent>
      </Card>
    </li>
  );
}

/** Owners' statements (issue 32): an admin hides an abusive one with a reason its author reads. */
export function Component() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>('all');
  const statements = useAdminStatements(filter);
  return (
    <>
      <BackToAdmin />
      <PageHeader
        title={t('admin.ownerStatements.title')}
        description={t('admin.ownerStatements.description')}
      />
      <div
        className="mb-4 flex flex-wrap gap-2"
        role="group"
        aria-label={t('admin.ownerStatements.filterLabel')}
      >
        {(Object.keys(filterKeys) as Filter[]).map((f) => (
          <Button
            key={f}
            size="sm"
            variant={f === filter ? 'default' : 'outline'}
            aria-pressed={f === filter}
            onClick={() => setFilter(f)}
          >
            {t(filterKeys[f])}
          </Button>
        ))}
      </div>
      {statements.isError ? (
        <p className="text-destructive">{errorMessage(statements.error)}</p>
      ) : !statements.data ? (
        <Skeleton className="h-32" />
      ) : statements.data.length === 0 ? (
        <p className="text-muted-foreground">{t('admin.ownerStatements.empty')}</p>
      ) : (
        <ul className="grid grid-cols-1 gap-4 xl:grid-cols-2">
          {statements.data.map((s) => (
            <StatementRow key={s.id} statement={s} />
          ))}
        </ul>
      )}
    </>
  );
}
