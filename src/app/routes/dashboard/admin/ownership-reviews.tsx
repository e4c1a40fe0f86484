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
  useDecideEvidence,
  useReviewEvidence,
  useScreenshotUrl,
  type ReviewEvidence,
} from '@/features/admin/api/ownership-reviews';
import { useUser } from '@/lib/auth';
import { errorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format';

const REASON_MAX = 500;
type Filter = 'waiting' | 'decided';
const filterKeys = {
  waiting: 'admin.ownershipReviews.filter.waiting',
  decided: 'admin.ownershipReviews.filter.decided',
} as const;
const stateKeys = {
  waiting: 'admin.ownershipReviews.state.waiting',
  approved: 'admin.ownershipReviews.state.approved',
  rejected: 'admin.ownershipReviews.state.rejected',
} as const;

function RejectForm({ evidence, onDone }: { evidence: ReviewEvidence; onDone: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const decide = useDecideEvidence();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      noValidate
      className="flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const r = reason.trim();
        if (!r) return setError(t('admin.ownershipReviews.reasonRequired'));
        if (r.length > REASON_MAX)
          return setError(t('admin.ownershipReviews.reasonLong', { max: REASON_MAX }));
        decide.mutate(
          { id: evidence.id, approve: false, reason: r },
          {
            onSuccess: () => {
              toast.success(t('admin.ownershipReviews.rejected'));
              onDone();
            },
            onError: (err) => setError(errorMessage(err)),
          },
        );
      }}
    >
      <Label htmlFor={`${id}-reason`}>{t('admin.ownershipReviews.reason')}</Label>
      <Textarea
        id={`${id}-reason`}
        rows={2}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        aria-invalid={!!error}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
      />
      <p id={`${id}-hint`} className="text-muted-foreground text-xs">
        {t('admin.ownershipReviews.reasonHint')}
      </p>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-destructive text-sm">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="destructive" size="sm" disabled={decide.isPending}>
          {t('admin.ownershipReviews.reject')}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={onDone}>
          {t('removal.form.cancel')}
        </Button>
      </div>
    </form>
  );
}

function Screenshot({ path }: { path: string | null }) {
  const { t } = useTranslation();
  const url = useScreenshotUrl(path);
  if (!path) return <p className="text-muted-foreground">{t('admin.ownershipReviews.noScreenshot')}</p>;
  if (url.isError) return <p className="text-destructive">{errorMessage(url.error)}</p>;
  if (!url.data) return <Skeleton className="h-40" />;
  return (
    <a href={url.data} target="_blank" rel="noopener noreferrer" className="self-start">
      <img
        src={url.data}
        alt={t('admin.ownershipReviews.openScreenshot')}
        className="max-h-80 max-w-full rounded-md border object-contain"
      />
    </a>
  );
}

function EvidenceRow({ evidence, own }: { evidence: ReviewEvidence; own: boolean }) {
  const { t } = useTranslation();
  const [rejecting, setRejecting] = useState(false);
  const decide = useDecideEvidence();
  const state = (evidence.decision ?? 'waiting') as keyof typeof stateKeys;
  return (
    <li>
      <Card className="gap-3 py-4" data-testid="ownership-review">
        <CardHeader className="px-4">
          <CardTitle className="flex flex-wrap items-center gap-2 text-base">
            <span className="font-mono break-all">{evidence.proof?.identifier_canonical}</span>
            <Badge variant={state === 'rejected' ? 'destructive' : 'secondary'}>{t(stateKeys[state])}</Badge>
          </CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 px-4 text-sm">
          <dl className="grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
            <dt className="text-muted-foreground">{t('admin.ownershipReviews.code')}</dt>
            <dd className="font-mono break-all select-all">{evidence.proof?.challenge}</dd>
            <dt className="text-muted-foreground">{t('admin.ownershipReviews.profile')}</dt>
            {/* Shown as text, not a link: the admin opens it deliberately, from a copy. */}
            <dd className="font-mono break-all select-all">{evidence.profile_url}</dd>
            <dt className="text-muted-foreground">{t('admin.ownershipReviews.note')}</dt>
            <dd className="break-words whitespace-pre-line">
              {evidence.note ?? t('admin.ownershipReviews.noNote')}
            </dd>
          </dl>
          <Screenshot path={evidence.image_path} />
          <p className="text-muted-foreground">
            {t('admin.ownershipReviews.sent', { date: formatDate(evidence.created_at) })}
          </p>
          {evidence.reason && <p className="break-words">{evidence.reason}</p>}
          {!evidence.decision &&
            (own ? (
              <p className="text-muted-foreground">{t('admin.ownershipReviews.ownEvidence')}</p>
            ) : rejecting ? (
              <RejectForm evidence={evidence} onDone={() => setRejecting(false)} />
            ) : (
              <div className="flex flex-wrap gap-2">
                <Button
                  size="sm"
                  disabled={decide.isPending}
                  onClick={() =>
                    decide.mutate(
                      { id: evidence.id, approve: true },
                      {
                        onSuccess: () => toast.success(t('admin.ownershipReviews.approved')),
                        onError: (e) => toast.error(errorMessage(e), { position: 'bottom-right' }),
                      },
                    )
                  }
                >
                  {t('admin.ownershipReviews.approve')}
                </Button>
                <Button variant="outline" size="sm" onClick={() => setRejecting(true)}>
                  {t('admin.ownershipReviews.reject')}
                </Button>
              </div>
            ))}
        </CardContent>
      </Card>
    </li>
  );
}

/**
 * Ownership reviews (issue 32): owners of social media and chat accounts send evidence; an admin who
 * is not the owner approves it (the account is proved "by admin review") or rejects it with a reason.
 */
export function Component() {
  const { t } = useTranslation();
  const user = useUser();
  const [filter, setFilter] = useState<Filter>('waiting');
  const evidence = useReviewEvidence(filter);
  return (
    <>
      <BackToAdmin />
      <PageHeader
        title={t('admin.ownershipReviews.title')}
        description={t('admin.ownershipReviews.description')}
      />
      <div
        className="mb-4 flex flex-wrap gap-2"
        role="group"
        aria-label={t('admin.ownershipReviews.filterLabel')}
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
      {evidence.isError ? (
        <p className="text-destructive">{errorMessage(evidence.error)}</p>
      ) : !evidence.data ? (
        <Skeleton className="h-32" />
      ) : evidence.data.length === 0 ? (
        <p className="text-muted-foreground">{t('admin.ownershipReviews.empty')}</p>
      ) : (
        <ul className="grid grid-cols-1 gap-4 xl:grid-cols-2">
          {evidence.data.map((e) => (
            <EvidenceRow key={e.id} evidence={e} own={e.user_id === user?.id} />
          ))}
        </ul>
      )}
    </>
  );
}
