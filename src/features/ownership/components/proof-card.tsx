import { useId, useState, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { BellRing, EyeOff } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Textarea } from '@/components/ui/textarea';
import { SubmitButton } from '@/components/submit-button';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';
import {
  proofState,
  STATEMENT_MAX,
  statementSchema,
  useCheckWebsite,
  useResendEmailCode,
  useSetStatement,
  useVerifyEmailCode,
  useWatchOwned,
  useWithdrawProof,
  type MyEvidence,
  type MyStatement,
  type Proof,
  type ProofState,
  type StatementInput,
} from '../api/ownership';
import { CodeForm, Copyable, ErrorText, ownershipError } from './shared';
import { SocialProof } from './social-proof';

const WELL_KNOWN_PATH = '/.well-known/scamcheck-verification.txt';

const stateKeys = {
  live: 'ownership.state.live',
  waiting: 'ownership.state.waiting',
  withdrawn: 'ownership.state.withdrawn',
  expired: 'ownership.state.expired',
} as const;

const stateClass: Record<ProofState, string> = {
  live: 'border-transparent bg-green-700 text-white dark:bg-green-600',
  waiting: 'border-transparent bg-amber-200 text-amber-950 dark:bg-amber-300',
  withdrawn: '',
  expired: '',
};

const methodKeys = {
  sms: 'ownership.method.sms',
  email: 'ownership.method.email',
  dns: 'ownership.method.dns',
  wellknown: 'ownership.method.wellknown',
  bio: 'ownership.method.bio',
  review: 'ownership.method.review',
} as const;

/** One proof: its state and dates, what is left to do, and for a live one the owner's tools. */
export function ProofCard({
  proof,
  statement,
  watched,
  removal,
  evidence,
}: {
  proof: Proof;
  statement?: MyStatement;
  /** The newest evidence sent for an admin's review of this proof (social accounts). */
  evidence?: MyEvidence;
  watched: boolean;
  /** The removal request of a live proof's identifier (composed by the page). */
  removal?: (identifier: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const state = proofState(proof);
  return (
    <Card data-testid="proof-card" aria-label={proof.identifier_canonical}>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2 text-base">
          <span className="font-mono break-all">{proof.identifier_canonical}</span>
          <Badge variant="outline" className={cn(stateClass[state])} data-testid="proof-state">
            {t(stateKeys[state])}
          </Badge>
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-5 text-sm">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-muted-foreground">{t('ownership.proof.method')}</dt>
          <dd>{t(methodKeys[proof.method])}</dd>
          <dt className="text-muted-foreground">{t('ownership.proof.started')}</dt>
          <dd>{formatDate(proof.created_at)}</dd>
          {proof.verified_at && (
            <>
              <dt className="text-muted-foreground">{t('ownership.proof.verified')}</dt>
              <dd>{formatDate(proof.verified_at)}</dd>
            </>
          )}
          {proof.expires_at && !proof.withdrawn_at && (
            <>
              <dt className="text-muted-foreground">
                {state === 'expired' ? t('ownership.proof.expired') : t('ownership.proof.expires')}
              </dt>
              <dd>{formatDate(proof.expires_at)}</dd>
            </>
          )}
          {proof.withdrawn_at && (
            <>
              <dt className="text-muted-foreground">{t('ownership.proof.withdrawn')}</dt>
              <dd>{formatDate(proof.withdrawn_at)}</dd>
            </>
          )}
        </dl>
        {state === 'waiting' && (proof.method === 'dns' || proof.method === 'wellknown') && (
          <WebsiteChallenge proof={proof} />
        )}
        {state === 'waiting' && proof.method === 'email' && <EmailCode proof={proof} />}
        {state === 'waiting' && (proof.method === 'bio' || proof.method === 'review') && (
          <SocialProof proof={proof} evidence={evidence} />
        )}
        {state === 'live' && (
          <>
            <StatementEditor identifier={proof.identifier_canonical} statement={statement} />
            <WatchOwned identifier={proof.identifier_canonical} watched={watched} />
            {removal?.(proof.identifier_canonical)}
          </>
        )}
        {(state === 'live' || state === 'waiting') && <Withdraw proof={proof} />}
      </CardContent>
    </Card>
  );
}

/** Exactly what to publish, and "Check now". */
function WebsiteChallenge({ proof }: { proof: Proof }) {
  const { t } = useTranslation();
  const check = useCheckWebsite();
  const [failed, setFailed] = useState<string | null>(null);
  const id = useId();
  const host = proof.identifier_canonical;
  const challenge = proof.challenge ?? '';
  return (
    <section className="flex flex-col gap-3" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="font-semibold">
        {proof.method === 'dns' ? t('ownership.website.dnsTitle') : t('ownership.website.fileTitle')}
      </h3>
      {proof.method === 'dns' ? (
        <>
          <p>{t('ownership.website.dnsHow')}</p>
          <Copyable label={t('ownership.website.type')} value="TXT" />
          <Copyable label={t('ownership.website.name')} value={`_scamcheck.${host}`} />
          <Copyable label={t('ownership.website.value')} value={challenge} />
        </>
      ) : (
        <>
          <p>{t('ownership.website.fileHow')}</p>
          <Copyable label={t('ownership.website.address')} value={`https://${host}${WELL_KNOWN_PATH}`} />
          <Copyable label={t('ownership.website.content')} value={challenge} />
        </>
      )}
      <Button
        className="self-start"
        disabled={check.isPending}
        aria-busy={check.isPending}
        onClick={() => {
          setFailed(null);
          check.mutate(proof.id, {
            onSuccess: (r) =>
              r.ok
                ? toast.success(t('ownership.prove.proved'))
                : setFailed(t('ownership.website.notFound', { detail: r.detail })),
            onError: (e) => setFailed(ownershipError(t, e)),
          });
        }}
      >
        {check.isPending ? t('ownership.website.checking') : t('ownership.website.checkNow')}
      </Button>
      <ErrorText id={`${id}-error`} message={failed} />
    </section>
  );
}

function EmailCode({ proof }: { proof: Proof }) {
  const { t } = useTranslation();
  const verify = useVerifyEmailCode();
  const resend = useResendEmailCode();
  return (
    <section className="flex flex-col gap-3">
      <p>{t('ownership.email.sent', { email: proof.identifier_canonical })}</p>
      <CodeForm
        label={t('ownership.code.label')}
        isPending={verify.isPending}
        onSubmit={(code, fail) =>
          verify.mutate(
            { proof: proof.id, code },
            {
              onSuccess: () => toast.success(t('ownership.prove.proved')),
              onError: (e) => fail(ownershipError(t, e)),
            },
          )
        }
      />
      <Button
        variant="outline"
        size="sm"
        className="self-start"
        disabled={resend.isPending}
        onClick={() =>
          resend.mutate(proof.id, {
            onSuccess: () => toast.success(t('ownership.email.resent')),
            onError: (e) => toast.error(ownershipError(t, e), { position: 'bottom-right' }),
          })
        }
      >
        {t('ownership.email.resend')}
      </Button>
    </section>
  );
}

/** The owner's answer: 1 to 500 characters, no links; a hidden one says why. */
function StatementEditor({ identifier, statement }: { identifier: string; statement?: MyStatement }) {
  const { t } = useTranslation();
  const save = useSetStatement();
  const form = useForm<StatementInput>({
    resolver: zodResolver(statementSchema),
    defaultValues: { body: statement?.body ?? '' },
  });
  const length = useWatch({ control: form.control, name: 'body' }).trim().length;
  return (
    <section className="flex flex-col gap-3 border-t pt-4">
      <h3 className="font-semibold">{t('ownership.statement.title')}</h3>
      {statement?.hidden_at && (
        <Alert variant="destructive" data-testid="statement-hidden">
          <EyeOff aria-hidden />
          <AlertTitle>{t('ownership.statement.hiddenTitle')}</AlertTitle>
          <AlertDescription>
            {t('ownership.statement.hiddenReason', { reason: statement.hidden_reason })}
          </AlertDescription>
        </Alert>
      )}
      <Form {...form}>
        <form
          noValidate
          className="flex flex-col gap-3"
          onSubmit={form.handleSubmit((v) =>
            save.mutate(
              { identifier, body: v.body },
              {
                onSuccess: () => toast.success(t('ownership.statement.saved')),
                onError: (e) => form.setError('body', { message: ownershipError(t, e) }),
              },
            ),
          )}
        >
          <FormField
            control={form.control}
            name="body"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t('ownership.statement.label')}</FormLabel>
                <FormControl>
                  <Textarea rows={4} maxLength={STATEMENT_MAX + 50} {...field} />
                </FormControl>
                <FormDescription>
                  {t('ownership.statement.hint', { count: length, max: STATEMENT_MAX })}
                </FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
          <SubmitButton
            isPending={save.isPending}
            label={statement ? t('ownership.statement.update') : t('ownership.statement.publish')}
            className="self-start"
          />
        </form>
      </Form>
    </section>
  );
}

/** Notify Me for owners: told at once of each new report, never who filed it. */
function WatchOwned({ identifier, watched }: { identifier: string; watched: boolean }) {
  const { t } = useTranslation();
  const watch = useWatchOwned();
  return (
    <section className="flex flex-col gap-2 border-t pt-4">
      <h3 className="font-semibold">{t('ownership.watch.title')}</h3>
      {watched ? (
        <p className="flex items-center gap-2" data-testid="watching">
          <BellRing className="text-primary size-4" aria-hidden />
          {t('ownership.watch.watching')}
        </p>
      ) : (
        <>
          <p className="text-muted-foreground">{t('ownership.watch.description')}</p>
          <Button
            variant="outline"
            className="self-start"
            disabled={watch.isPending}
            onClick={() =>
              watch.mutate(identifier, {
                onSuccess: () => toast.success(t('ownership.watch.saved')),
                onError: (e) => toast.error(ownershipError(t, e), { position: 'bottom-right' }),
              })
            }
          >
            <BellRing aria-hidden />
            {t('ownership.watch.button')}
          </Button>
        </>
      )}
    </section>
  );
}

function Withdraw({ proof }: { proof: Proof }) {
  const { t } = useTranslation();
  const withdraw = useWithdrawProof();
  const [asking, setAsking] = useState(false);
  return (
    <section className="flex flex-col gap-2 border-t pt-4">
      {!asking ? (
        <Button variant="ghost" className="text-destructive self-start" onClick={() => setAsking(true)}>
          {t('ownership.withdraw.button')}
        </Button>
      ) : (
        <div className="flex flex-col gap-2" role="group" aria-label={t('ownership.withdraw.button')}>
          <p>{t('ownership.withdraw.confirm')}</p>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="destructive"
              disabled={withdraw.isPending}
              onClick={() =>
                withdraw.mutate(proof.id, {
                  onSuccess: () => toast.success(t('ownership.withdraw.done')),
                  onError: (e) => toast.error(ownershipError(t, e), { position: 'bottom-right' }),
                })
              }
            >
              {t('ownership.withdraw.yes')}
            </Button>
            <Button variant="outline" onClick={() => setAsking(false)}>
              {t('removal.form.cancel')}
            </Button>
          </div>
        </div>
      )}
    </section>
  );
}
