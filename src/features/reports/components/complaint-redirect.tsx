import { useEffect, useState } from 'react';
import { ExternalLink } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { env } from '@/config/env';

/** docs/behaviour.md §9: the complaint site opens 5 seconds after a report whose answer was not yes. */
export const COMPLAINT_REDIRECT_SECONDS = 5;

/**
 * Counts down, then opens the national cybercrime complaint site in a new tab. The address is fixed
 * by configuration (VITE_COMPLAINT_SITE_URL). The link is there too, because a browser may block a
 * tab opened without a click, and Cancel lets the user stay.
 */
export function ComplaintRedirect({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [seconds, setSeconds] = useState(COMPLAINT_REDIRECT_SECONDS);

  useEffect(() => {
    if (seconds <= 0) {
      window.open(env.VITE_COMPLAINT_SITE_URL, '_blank', 'noopener,noreferrer');
      onDone();
      return;
    }
    const timer = window.setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [seconds, onDone]);

  return (
    <Alert role="status" aria-live="polite" className="border-primary/40 bg-primary/5">
      <ExternalLink aria-hidden />
      <AlertTitle className="line-clamp-none">{t('reports.complaint.title')}</AlertTitle>
      <AlertDescription className="flex flex-col gap-3">
        <p data-testid="complaint-countdown">{t('reports.complaint.countdown', { count: seconds })}</p>
        <div className="flex flex-wrap gap-2">
          <Button asChild size="sm">
            <a href={env.VITE_COMPLAINT_SITE_URL} target="_blank" rel="noopener noreferrer" onClick={onDone}>
              {t('reports.complaint.openNow')}
            </a>
          </Button>
          <Button size="sm" variant="outline" onClick={onDone}>
            {t('reports.complaint.cancel')}
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}
