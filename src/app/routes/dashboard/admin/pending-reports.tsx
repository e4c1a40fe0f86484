import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/layouts/page-header';
import { BackToAdmin } from '@/features/admin/components/back-to-admin';
import { ReviewWorkspace } from './review-workspace';

/** The review workspace (docs/moderation.md): pending reports by identifier, decided with reasons. */
export function Component() {
  const { t } = useTranslation();
  return (
    <>
      <BackToAdmin />
      <PageHeader title={t('admin.pending.title')} description={t('admin.pending.description')} />
      <ReviewWorkspace />
    </>
  );
}
