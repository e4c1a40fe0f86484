import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Clock, XCircle } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { SubmitButton } from '@/components/submit-button';
import { formatDate } from '@/lib/format';
import { IMAGE_ACCEPT, imageFile } from '@/lib/image-file';
import { bioPlatform } from '@/lib/social-bio-platforms';
import {
  evidenceSchema,
  NOTE_MAX,
  useCheckWebsite,
  useSubmitEvidence,
  type EvidenceInput,
  type MyEvidence,
  type Proof,
} from '../api/ownership';
import { Copyable, ErrorText, ownershipError } from './shared';

/**
 * A waiting social or chat account proof (issue 32): the code to place in the account's public bio;
 * "Check now" where the platform's public page shows the bio (Telegram); otherwise, or when the check
 * cannot see it, evidence for an admin's review, and that review's outcome.
 */
export function SocialProof({ proof, evidence }: { proof: Proof; evidence?: MyEvidence }) {
  const { t } = useTranslation();
  const automatic = bioPlatform(proof.identifier_canonical) !== null;
  const waiting = evidence && !evidence.decision;
  return (
    <section className="flex flex-col gap-3" data-testid="social-proof">
      <h3 className="font-semibold">{t('ownership.social.codeTitle')}</h3>
      <p>{automatic ? t('ownership.social.howAutomatic') : t('ownership.social.howReview')}</p>
      <Copyable label={t('ownership.social.code')} value={proof.challenge ?? ''} />
      {automatic && <CheckBio proof={proof} />}
      {waiting ? (
        <Alert data-testid="evidence-waiting">
          <Clock aria-hidden />
          <AlertTitle>{t('ownership.social.waitingTitle')}</AlertTitle>
          <AlertDescription>
            {t('ownership.social.waiting', { date: formatDate(evidence.created_at) })}
          </AlertDescription>
        </Alert>
      ) : (
        <>
          {evidence?.decision === 'rejected' && (
            <Alert variant="destructive" data-testid="evidence-rejected">
              <XCircle aria-hidden />
              <AlertTitle>{t('ownership.social.rejectedTitle')}</AlertTitle>
              <AlertDescription>
                {t('ownership.social.rejected', {
                  date: formatDate(evidence.decided_at ?? evidence.created_at),
                  reason: evidence.reason,
                })}
              </AlertDescription>
            </Alert>
          )}
          <EvidenceForm proof={proof} automatic={automatic} />
        </>
      )}
    </section>
  );
}

function CheckBio({ proof }: { proof: Proof }) {
  const { t } = useTranslation();
  const check = useCheckWebsite();
  const [failed, setFailed] = useState<string | null>(null);
  const id = useId();
  return (
    <div className="flex flex-col gap-2">
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
                : setFailed(t('ownership.social.notFound', { detail: r.detail })),
            onError: (e) => setFailed(ownershipError(t, e)),
          });
        }}
      >
        {check.isPending ? t('ownership.website.checking') : t('ownership.website.checkNow')}
      </Button>
      <ErrorText id={`${id}-error`} message={failed} />
    </div>
  );
}

function EvidenceForm({ proof, automatic }: { proof: Proof; automatic: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const submit = useSubmitEvidence();
  const [screenshot, setScreenshot] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const form = useForm<EvidenceInput>({
    resolver: zodResolver(evidenceSchema),
    defaultValues: { profileUrl: `https://${proof.identifier_canonical}`, note: '' },
  });
  return (
    <Form {...form}>
      <form
        noValidate
        aria-label={t('ownership.social.evidenceTitle')}
        className="flex flex-col gap-3 border-t pt-4"
        onSubmit={form.handleSubmit((v) => {
          if (fileError) return;
          submit.mutate(
            { ...v, proof: proof.id, screenshot },
            {
              onSuccess: () => toast.success(t('ownership.social.sent')),
              onError: (e) => form.setError('root', { message: ownershipError(t, e) }),
            },
          );
        })}
      >
        <h3 className="font-semibold">{t('ownership.social.evidenceTitle')}</h3>
        <p className="text-muted-foreground">
          {automatic ? t('ownership.social.evidenceIfNotSeen') : t('ownership.social.evidenceHow')}
        </p>
        <FormField
          control={form.control}
          name="profileUrl"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('ownership.social.profileUrl')}</FormLabel>
              <FormControl>
                <Input inputMode="url" autoComplete="off" spellCheck={false} {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-shot`}>{t('ownership.social.screenshot')}</Label>
          <Input
            id={`${id}-shot`}
            type="file"
            accept={IMAGE_ACCEPT}
            aria-invalid={!!fileError}
            aria-describedby={`${id}-shot-hint${fileError ? ` ${id}-shot-error` : ''}`}
            onChange={(e) => {
              const file = e.target.files?.[0] ?? null;
              setScreenshot(file);
              const checked = file ? imageFile.safeParse(file) : null;
              setFileError(checked && !checked.success ? checked.error.issues[0].message : null);
            }}
          />
          <p id={`${id}-shot-hint`} className="text-muted-foreground text-sm">
            {t('ownership.social.screenshotHint')}
          </p>
          <ErrorText id={`${id}-shot-error`} message={fileError} />
        </div>
        <FormField
          control={form.control}
          name="note"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('ownership.social.note')}</FormLabel>
              <FormControl>
                <Textarea rows={3} maxLength={NOTE_MAX + 50} {...field} />
              </FormControl>
              <FormDescription>{t('ownership.social.noteHint', { max: NOTE_MAX })}</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <ErrorText id={`${id}-error`} message={form.formState.errors.root?.message ?? null} />
        <SubmitButton
          isPending={submit.isPending}
          label={t('ownership.social.send')}
          className="self-start"
        />
      </form>
    </Form>
  );
}
