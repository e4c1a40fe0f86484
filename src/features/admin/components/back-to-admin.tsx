import { Link } from 'react-router-dom';
import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';

export function BackToAdmin() {
  const { t } = useTranslation();
  return (
    <Link
      to={paths.dashboard.admin.root.getHref()}
      className="text-muted-foreground hover:text-foreground mb-2 inline-flex items-center gap-1 text-sm"
    >
      <ArrowLeft className="size-4" aria-hidden />
      {t('admin.backToAdmin')}
    </Link>
  );
}
