import { Link } from 'react-router-dom';
import { Trans, useTranslation } from 'react-i18next';
import { ContactBlock, StaticPage } from '@/components/static-page';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import { formatLongMonth } from '@/lib/format';

export function Component() {
  const { t } = useTranslation();
  const strong = { strong: <strong /> };
  return (
    <StaticPage
      title={t('privacy.title')}
      lead={t('privacy.lead', { date: formatLongMonth(site.lastUpdated) })}
      legal
    >
      <p>{t('privacy.intro')}</p>
      <h2>{t('privacy.collectTitle')}</h2>
      <ul>
        <li>
          <Trans i18nKey="privacy.collectAccount" components={strong} />
        </li>
        <li>
          <Trans i18nKey="privacy.collectReports" components={strong} />
        </li>
        <li>
          <Trans i18nKey="privacy.collectSearches" components={strong} />
        </li>
        <li>
          <Trans
            i18nKey="privacy.collectMessages"
            components={{ ...strong, contact: <Link to={paths.contact.getHref()} /> }}
          />
        </li>
        <li>
          <Trans i18nKey="privacy.collectNotify" components={strong} />
        </li>
      </ul>
      <h2>{t('privacy.useTitle')}</h2>
      <ul>
        <li>{t('privacy.use1')}</li>
        <li>{t('privacy.use2')}</li>
        <li>{t('privacy.use3')}</li>
        <li>{t('privacy.use4')}</li>
      </ul>
      <p>{t('privacy.noSale')}</p>
      <h2>{t('privacy.seeTitle')}</h2>
      <p>{t('privacy.see')}</p>
      <h2>{t('privacy.keepTitle')}</h2>
      <p>{t('privacy.keep')}</p>
      <h2>{t('privacy.rightsTitle')}</h2>
      <p>{t('privacy.rights')}</p>
      <ContactBlock email={site.supportEmail} addressLines={site.address.lines} />
    </StaticPage>
  );
}
