import { useTranslation } from 'react-i18next';

/** 'Loading…' in the reader's language, announced politely, while a page or the session loads. */
export function LoadingStatus() {
  const { t } = useTranslation();
  return (
    <div role="status" aria-live="polite" className="text-muted-foreground p-8 text-center">
      {t('common.loading')}
    </div>
  );
}
