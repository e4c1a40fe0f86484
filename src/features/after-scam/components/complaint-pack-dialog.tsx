import { useState, type ReactNode } from 'react';
import { Copy, Download, Loader2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
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
import { Textarea } from '@/components/ui/textarea';
import { useLanguage } from '@/i18n/use-language';
import { IMAGE_PICK_ACCEPT } from '@/lib/image-file';
import { errorMessage } from '@/lib/errors';
import { PACK_LANGUAGES, type PackInput, type PackLanguage } from '../api/pack-input';
import { buildPack } from '../api/pack-model';
import { packToText } from '../api/pack-text';
import { prepareEvidence } from '../api/prepare-evidence';
import type { PackSource } from '../api/pack-source';

/** The victim's own details, typed for the pack only (with the browser's autofill names). */
const PERSON_FIELDS = [
  { key: 'name', label: 'afterScam.pack.victim.name', autoComplete: 'name', type: 'text' },
  { key: 'phone', label: 'afterScam.pack.victim.phone', autoComplete: 'tel', type: 'tel' },
  { key: 'email', label: 'afterScam.pack.victim.email', autoComplete: 'email', type: 'email' },
  { key: 'address', label: 'afterScam.pack.victim.address', autoComplete: 'street-address', type: 'text' },
] as const;

const LANGUAGE_LABELS = { en: 'afterScam.pack.languages.en', fil: 'afterScam.pack.languages.fil' } as const;

/** Lines 'a | b | c' as trimmed parts; blank lines dropped. */
function splitLines(text: string): string[][] {
  return text
    .split('\n')
    .map((line) => line.split('|').map((part) => part.trim()))
    .filter((parts) => parts.some(Boolean));
}

function Field({
  id,
  label,
  hint,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint && <p className="text-muted-foreground text-xs">{hint}</p>}
    </div>
  );
}

/**
 * The complaint pack's form: what the victim types only for the pack (contact details, the bank or
 * e-wallet, transaction reference numbers, a timeline, images from the device), then a PDF to download
 * or the text to copy. Everything stays in this page's memory: nothing typed here is stored or sent,
 * and the report's own images are only read back from storage to hash them and put them in the PDF.
 */
export default function ComplaintPackDialog({
  source,
  onClose,
}: {
  source: PackSource;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { language: appLanguage } = useLanguage();
  const [language, setLanguage] = useState<PackLanguage>(appLanguage === 'fil' ? 'fil' : 'en');
  const [victim, setVictim] = useState({ name: '', phone: '', email: '', address: '' });
  const [institution, setInstitution] = useState({ name: '', victimAccount: '' });
  const [transactions, setTransactions] = useState('');
  const [timeline, setTimeline] = useState('');
  const [amount, setAmount] = useState(source.amountLost == null ? '' : String(source.amountLost));
  const [description, setDescription] = useState(source.description ?? '');
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState<'pdf' | 'text' | null>(null);

  async function packInput(): Promise<PackInput> {
    const stored = source.loadEvidence ? await source.loadEvidence() : [];
    const all = [...stored, ...files.map((file) => ({ name: file.name, blob: file as Blob }))];
    const amountNumber = Number(amount.replace(/,/g, ''));
    return {
      language,
      madeAt: new Date(),
      victim,
      institution,
      identifiers: source.identifiers,
      incidentType: source.incidentType ?? 'scam',
      incidentDate: source.incidentDate ?? new Date().toISOString().slice(0, 10),
      description,
      amountLost: amount.trim() && Number.isFinite(amountNumber) ? amountNumber : null,
      transactions: splitLines(transactions).map(([reference = '', txAmount = '', when = '', to = '']) => ({
        reference,
        amount: txAmount,
        when,
        to,
      })),
      timeline: splitLines(timeline).map(([when = '', ...what]) => ({ when, what: what.join(' | ') })),
      evidence: await Promise.all(all.map((e) => prepareEvidence(e.name, e.blob))),
      reportId: source.reportId ?? null,
    };
  }

  async function download() {
    setBusy('pdf');
    try {
      const input = await packInput();
      const { packToPdf } = await import('../api/pack-pdf');
      const bytes = await packToPdf(buildPack(input), input.evidence);
      const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/pdf' }));
      const a = Object.assign(document.createElement('a'), {
        href: url,
        download: `complaint-pack-${language}-${input.incidentDate}.pdf`,
      });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(null);
    }
  }

  async function copy() {
    setBusy('text');
    try {
      const text = packToText(buildPack(await packInput()));
      await navigator.clipboard.writeText(text);
      toast.success(t('afterScam.pack.copied'));
    } catch (e) {
      toast.error(errorMessage(e));
    } finally {
      setBusy(null);
    }
  }

  const person = (key: keyof typeof victim, label: string, autoComplete: string, type: string) => (
    <Field key={key} id={`pack-${key}`} label={label}>
      <Input
        id={`pack-${key}`}
        type={type}
        autoComplete={autoComplete}
        value={victim[key]}
        onChange={(e) => setVictim({ ...victim, [key]: e.target.value })}
      />
    </Field>
  );

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t('afterScam.pack.title')}</DialogTitle>
          <DialogDescription>{t('afterScam.pack.description')}</DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-4">
          <fieldset className="flex flex-wrap items-center gap-4">
            <legend className="mb-2 text-sm font-medium">{t('afterScam.pack.language')}</legend>
            {PACK_LANGUAGES.map((lang) => (
              <label key={lang} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="pack-language"
                  value={lang}
                  checked={language === lang}
                  onChange={() => setLanguage(lang)}
                />
                {t(LANGUAGE_LABELS[lang])}
              </label>
            ))}
          </fieldset>
          <p className="bg-muted/50 rounded-md border p-3 text-sm">
            {source.identifiers.map((i) => i.written).join(', ')}
          </p>
          <div className="grid gap-4 sm:grid-cols-2">
            {PERSON_FIELDS.map(({ key, label, autoComplete, type }) =>
              person(key, t(label), autoComplete, type),
            )}
            <Field
              id="pack-institution"
              label={t('afterScam.pack.institution')}
              hint={t('afterScam.pack.institutionHint')}
            >
              <Input
                id="pack-institution"
                value={institution.name}
                onChange={(e) => setInstitution({ ...institution, name: e.target.value })}
              />
            </Field>
            <Field id="pack-account" label={t('afterScam.pack.victimAccount')}>
              <Input
                id="pack-account"
                value={institution.victimAccount}
                onChange={(e) => setInstitution({ ...institution, victimAccount: e.target.value })}
              />
            </Field>
            <Field id="pack-amount" label={t('afterScam.pack.amount')}>
              <Input
                id="pack-amount"
                inputMode="decimal"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
              />
            </Field>
          </div>
          <Field
            id="pack-transactions"
            label={t('afterScam.pack.transactions')}
            hint={t('afterScam.pack.transactionsHint')}
          >
            <Textarea
              id="pack-transactions"
              rows={3}
              value={transactions}
              placeholder="5012 345 678901 | 15,000 | 2026-11-25 14:02 | 0917 123 4567"
              onChange={(e) => setTransactions(e.target.value)}
            />
          </Field>
          <Field
            id="pack-timeline"
            label={t('afterScam.pack.timeline')}
            hint={t('afterScam.pack.timelineHint')}
          >
            <Textarea
              id="pack-timeline"
              rows={3}
              value={timeline}
              onChange={(e) => setTimeline(e.target.value)}
            />
          </Field>
          <Field id="pack-description" label={t('afterScam.pack.story')}>
            <Textarea
              id="pack-description"
              rows={4}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          </Field>
          <Field id="pack-images" label={t('afterScam.pack.images')} hint={t('afterScam.pack.imagesHint')}>
            <Input
              id="pack-images"
              type="file"
              multiple
              accept={IMAGE_PICK_ACCEPT}
              onChange={(e) => setFiles([...(e.target.files ?? [])])}
            />
          </Field>
          <p className="text-muted-foreground text-xs">{t('afterScam.pack.private')}</p>
        </div>
        <DialogFooter className="gap-2">
          <Button type="button" variant="outline" onClick={copy} disabled={busy !== null}>
            {busy === 'text' ? <Loader2 className="animate-spin" aria-hidden /> : <Copy aria-hidden />}
            {t('afterScam.pack.copy')}
          </Button>
          <Button type="button" onClick={download} disabled={busy !== null}>
            {busy === 'pdf' ? <Loader2 className="animate-spin" aria-hidden /> : <Download aria-hidden />}
            {t('afterScam.pack.download')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
