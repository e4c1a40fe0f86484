import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { ContactBlock, StaticPage } from '@/components/static-page';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import { useUser } from '@/lib/auth';
import { ContactForm } from '@/features/contact/components/contact-form';

export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useUser();
  return (
    <StaticPage title={t('contact.title')} lead={t('contact.lead')}>
      <ContactForm
        defaultEmail={user?.email ?? ''}
        onSuccess={() => {
          toast.success(t('contact.sent'));
          navigate(paths.home.getHref());
        }}
      />
      <h2>{t('contact.otherWays')}</h2>
      <ContactBlock email={site.supportEmail} addressLines={site.address.lines} />
    </StaticPage>
  );
}
