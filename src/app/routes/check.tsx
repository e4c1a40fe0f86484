import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useUser } from '@/lib/auth';
import { errorMessage } from '@/lib/errors';
import type { CheckedItem } from '@/lib/check-message';
import { useCheckMessage } from '@/features/check/api/check-message';
import { CheckForm } from '@/features/check/components/check-form';
import { CheckResults } from '@/features/check/components/check-results';

/**
 * The message carried to /check: the page state (from the home page's search box), or the query
 * string (?text=, and title/url as Android's share sheet sends them to the Web Share Target).
 */
export function messageFrom(state: unknown, params: URLSearchParams): string {
  const fromState = (state as { text?: unknown } | null)?.text;
  if (typeof fromState === 'string') return fromState;
  const parts = ['title', 'text', 'url'].map((k) => params.get(k)?.trim() ?? '').filter(Boolean);
  return [...new Set(parts)].join('\n');
}

function Check({ text }: { text: string }) {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const check = useCheckMessage(text);

  function report(item: CheckedItem) {
    if (!user) {
      // Back to this same check after logging in (the message travels in the address, not stored).
      navigate(paths.auth.login.getHref(paths.check.getHref(text)));
      return;
    }
    navigate(paths.dashboard.addReport.getHref(), {
      state: {
        prefill: {
          reportedAccountType: item.type,
          reportedAccount: item.canonical,
          incidentDescription: text,
        },
      },
    });
  }

  if (check.error)
    return (
      <p role="alert" className="text-destructive">
        {t('check.failed', { message: errorMessage(check.error) })}
      </p>
    );
  if (!check.result)
    return (
      <div className="flex flex-col gap-4" role="status" aria-busy="true" aria-label={t('check.checking')}>
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-40 w-full" />
      </div>
    );
  return <CheckResults result={check.result} sent={check.sent} onReport={report} />;
}

export function Component() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const text = messageFrom(location.state, params);

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-10">
      <header className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold tracking-tight">{t('check.title')}</h1>
        <p className="text-muted-foreground">{t('check.lead')}</p>
      </header>
      <CheckForm
        key={text}
        defaultValue={text}
        onCheck={(message) => navigate(paths.check.getHref(), { state: { text: message } })}
      />
      {text.trim() && <Check text={text} />}
    </div>
  );
}
