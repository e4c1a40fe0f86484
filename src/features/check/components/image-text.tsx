import type { ReactNode } from 'react';
import { ScanText, ShieldQuestion } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { formatNumber } from '@/lib/format';
import type { ExtractedItem } from '@/lib/check-message';

/** Under this confidence (0-100) the reading is called unsure and the user is asked to check the text. */
export const LOW_CONFIDENCE = 70;

/** What /check keeps of a reading of an image: the text as read, and how sure the OCR was. */
export interface ImageOrigin {
  text: string;
  confidence: number;
}

/** True when the image's text could not be read well enough to give a verdict on it. */
export function unreadable(origin: ImageOrigin): boolean {
  return origin.confidence < LOW_CONFIDENCE || !origin.text.trim();
}

/** The text with each identifier's written form marked (the parts the check looked up). */
function marked(text: string, items: ExtractedItem[]): ReactNode[] {
  const spans: { at: number; raw: string }[] = [];
  for (const form of new Set(items.flatMap((i) => i.forms)))
    for (let at = form ? text.indexOf(form) : -1; at >= 0; at = text.indexOf(form, at + form.length))
      spans.push({ at, raw: form });
  spans.sort((a, b) => a.at - b.at || b.raw.length - a.raw.length);
  const out: ReactNode[] = [];
  let pos = 0;
  for (const s of spans) {
    if (s.at < pos) continue;
    out.push(text.slice(pos, s.at));
    out.push(
      <mark key={s.at} className="bg-primary/15 text-foreground rounded px-0.5">
        {s.raw}
      </mark>,
    );
    pos = s.at + s.raw.length;
  }
  out.push(text.slice(pos));
  return out;
}

/**
 * "Read from your image": the text the OCR read, with the numbers, links and addresses it found
 * marked, and how sure it was. The box above holds the same text to correct; this shows what came
 * from the image.
 */
export function ImageText({ origin, items }: { origin: ImageOrigin; items: ExtractedItem[] }) {
  const { t } = useTranslation();
  const unsure = unreadable(origin);
  return (
    <section aria-labelledby="image-text-heading" className="flex flex-col gap-2" data-testid="image-text">
      <h2 id="image-text-heading" className="flex items-center gap-2 text-lg font-semibold">
        <ScanText aria-hidden className="size-5" />
        {t('check.image.readHeading')}
      </h2>
      <p className={unsure ? 'text-amber-700 dark:text-amber-400 text-sm' : 'text-muted-foreground text-sm'}>
        {t(unsure ? 'check.image.unsure' : 'check.image.sure', {
          confidence: formatNumber(Math.round(origin.confidence)),
        })}
      </p>
      <pre className="bg-muted/40 rounded-md border p-3 font-sans text-sm break-words whitespace-pre-wrap">
        {marked(origin.text, items)}
      </pre>
    </section>
  );
}

/** The verdict for an image whose text could not be read well: never "No warning signs found". */
export function UnreadableVerdict() {
  const { t } = useTranslation();
  return (
    <Alert role="alert" className="border-amber-500/60">
      <ShieldQuestion aria-hidden />
      <AlertTitle className="text-lg">{t('check.image.unreadable.title')}</AlertTitle>
      <AlertDescription>
        <p className="text-foreground">{t('check.image.unreadable.summary')}</p>
      </AlertDescription>
    </Alert>
  );
}
