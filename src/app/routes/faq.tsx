import { Link } from 'react-router-dom';
import { Trans, useTranslation } from 'react-i18next';
import { ContactBlock, StaticPage } from '@/components/static-page';
import { paths } from '@/config/paths';
import { site } from '@/config/site';

export function Component() {
  const { t } = useTranslation();
  const faqs = [
    { q: t('faq.checked.q'), a: t('faq.checked.a') },
    { q: t('faq.anonymous.q'), a: t('faq.anonymous.a') },
    {
      q: t('faq.edit.q'),
      a: (
        <Trans
          i18nKey="faq.edit.a"
          values={{ email: site.supportEmail }}
          components={{ mail: <a href={`mailto:${site.supportEmail}`} /> }}
        />
      ),
    },
    {
      q: t('faq.police.q'),
      a: (
        <Trans
          i18nKey="faq.police.a"
          values={{ site: new URL(site.complaintSiteUrl).hostname }}
          components={{
            complaint: <a href={site.complaintSiteUrl} target="_blank" rel="noopener noreferrer" />,
          }}
        />
      ),
    },
    {
      q: t('faq.mistake.q'),
      a: <Trans i18nKey="faq.mistake.a" components={{ contact: <Link to={paths.contact.getHref()} /> }} />,
    },
  ];
  return (
    <StaticPage title={t('faq.title')}>
      <dl className="flex flex-col gap-6">
        {faqs.map(({ q, a }) => (
          <div key={q} className="border-b pb-6 last:border-0">
            <dt className="text-lg font-semibold">{q}</dt>
            <dd className="text-muted-foreground mt-2">{a}</dd>
          </div>
        ))}
      </dl>
      <h2>{t('faq.stillQuestion')}</h2>
      <ContactBlock email={site.supportEmail} addressLines={site.address.lines} />
    </StaticPage>
  );
}
