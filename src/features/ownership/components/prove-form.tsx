import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import {
  phoneE164,
  useConfirmSmsCode,
  useSendSmsCode,
  useStartEmailProof,
  useStartSocialProof,
  useStartWebsiteProof,
} from '../api/ownership';
import { CodeForm, ErrorText, ownershipError } from './shared';

type Way = 'sms' | 'email' | 'dns' | 'wellknown' | 'social';
const WAYS: Way[] = ['sms', 'email', 'dns', 'wellknown', 'social'];

const wayKeys = {
  sms: { label: 'ownership.prove.ways.sms', hint: 'ownership.prove.ways.smsHint' },
  email: { label: 'ownership.prove.ways.email', hint: 'ownership.prove.ways.emailHint' },
  dns: { label: 'ownership.prove.ways.dns', hint: 'ownership.prove.ways.dnsHint' },
  wellknown: { label: 'ownership.prove.ways.wellknown', hint: 'ownership.prove.ways.wellknownHint' },
  social: { label: 'ownership.prove.ways.social', hint: 'ownership.prove.ways.socialHint' },
} as const;

const fieldKeys = {
  sms: 'ownership.prove.fields.phone',
  email: 'ownership.prove.fields.email',
  dns: 'ownership.prove.fields.website',
  wellknown: 'ownership.prove.fields.website',
  social: 'ownership.prove.fields.social',
} as const;

/**
 * Picks what to prove and how: a mobile number or e-wallet by SMS code (Auth's phone change), an e-mail
 * address by an e-mailed code, a website by a TXT record or a file, a social or chat account by a code
 * in its public bio (the proof then waits in the list below, with exactly what to publish, "Check now"
 * where the platform shows it, and evidence for an admin's review).
 */
export function ProveForm() {
  const { t } = useTranslation();
  const id = useId();
  const [way, setWay] = useState<Way>('sms');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** The number a code was texted to, waiting for the code. */
  const [texted, setTexted] = useState<string | null>(null);
  const sendSms = useSendSmsCode();
  const confirmSms = useConfirmSmsCode();
  const startEmail = useStartEmailProof();
  const startWebsite = useStartWebsiteProof();
  const startSocial = useStartSocialProof();
  const pending =
    sendSms.isPending || startEmail.isPending || startWebsite.isPending || startSocial.isPending;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    const v = value.trim();
    if (!v) return setError(t('ownership.prove.errors.empty'));
    const fail = (err: unknown) => setError(ownershipError(t, err));
    if (way === 'sms') {
      const phone = phoneE164(v);
      if (!phone) return setError(t('ownership.prove.errors.phone'));
      sendSms.mutate(phone, { onSuccess: () => setTexted(phone), onError: fail });
    } else if (way === 'email') {
      startEmail.mutate(v, {
        onSuccess: () => {
          toast.success(t('ownership.prove.emailSent', { email: v }));
          setValue('');
        },
        onError: fail,
      });
    } else if (way === 'social') {
      startSocial.mutate(v, {
        onSuccess: () => {
          toast.success(t('ownership.prove.socialStarted'));
          setValue('');
        },
        onError: fail,
      });
    } else {
      startWebsite.mutate(
        { website: v, method: way },
        {
          onSuccess: () => {
            toast.success(t('ownership.prove.websiteStarted'));
            setValue('');
          },
          onError: fail,
        },
      );
    }
  };

  if (texted)
    return (
      <div className="flex flex-col gap-3" data-testid="sms-code-step">
        <p role="status">{t('ownership.prove.smsSent', { phone: texted })}</p>
        <CodeForm
          label={t('ownership.code.label')}
          isPending={confirmSms.isPending}
          onSubmit={(token, fail) =>
            confirmSms.mutate(
              { phone: texted, token, kind: 'mobile' },
              {
                onSuccess: () => {
                  toast.success(t('ownership.prove.proved'));
                  setTexted(null);
                  setValue('');
                },
                onError: (err) => fail(ownershipError(t, err)),
              },
            )
          }
        />
        <Button variant="ghost" className="self-start" onClick={() => setTexted(null)}>
          {t('ownership.prove.otherNumber')}
        </Button>
      </div>
    );

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-4"
      aria-label={t('ownership.prove.title')}
    >
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">{t('ownership.prove.how')}</legend>
        <RadioGroup
          value={way}
          onValueChange={(w) => {
            setWay(w as Way);
            setError(null);
          }}
          className="gap-3"
        >
          {WAYS.map((w) => (
            <div key={w} className="flex items-start gap-3">
              <RadioGroupItem value={w} id={`${id}-${w}`} className="mt-0.5" />
              <div className="flex flex-col gap-0.5">
                <Label htmlFor={`${id}-${w}`} className="leading-snug">
                  {t(wayKeys[w].label)}
                </Label>
                <p className="text-muted-foreground text-sm">{t(wayKeys[w].hint)}</p>
              </div>
            </div>
          ))}
        </RadioGroup>
      </fieldset>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-value`}>{t(fieldKeys[way])}</Label>
        <Input
          id={`${id}-value`}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          inputMode={way === 'sms' ? 'tel' : way === 'email' ? 'email' : 'url'}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={!!error}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <ErrorText id={`${id}-error`} message={error} />
      </div>
      <Button type="submit" disabled={pending} aria-busy={pending} className="self-start">
        {pending
          ? t('common.submitting')
          : way === 'sms' || way === 'email'
            ? t('ownership.prove.sendCode')
            : t('ownership.prove.getChallenge')}
      </Button>
    </form>
  );
}
