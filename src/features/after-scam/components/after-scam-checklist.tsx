import { ExternalLink } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Skeleton } from '@/components/ui/skeleton';
import { useLanguage } from '@/i18n/use-language';
import { useAfterScamSteps } from '../api/get-after-scam-steps';

/**
 * "What to do now": the reviewed steps (public.after_scam_steps) in order of urgency, in the reader's
 * language, each with its official numbers and link.
 */
export function AfterScamChecklist() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const steps = useAfterScamSteps();
  if (!steps.data) {
    return steps.isError ? null : (
      <Skeleton className="h-40 w-full" role="status" aria-label={t('afterScam.loading')} />
    );
  }
  return (
    <ol className="flex flex-col gap-3" aria-label={t('afterScam.title')}>
      {steps.data.map((step, i) => (
        <li key={step.id} className="flex gap-3">
          <span
            className="bg-primary text-primary-foreground flex size-7 shrink-0 items-center justify-center rounded-full text-sm font-semibold"
            aria-hidden
          >
            {i + 1}
          </span>
          <div className="flex min-w-0 flex-col gap-1">
            <p className="font-semibold">{language === 'fil' ? step.title_fil : step.title_en}</p>
            <p className="text-muted-foreground text-sm">
              {language === 'fil' ? step.body_fil : step.body_en}
            </p>
            {step.contacts && <p className="text-sm font-medium break-words">{step.contacts}</p>}
            {step.link_url && (
              <a
                href={step.link_url}
                target="_blank"
                rel="noopener noreferrer"
                className="text-primary inline-flex w-fit items-center gap-1 text-sm break-all underline underline-offset-4"
              >
                {new URL(step.link_url).host}
                <ExternalLink className="size-3" aria-hidden />
              </a>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}
