import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { ContactBlock, StaticPage } from '@/components/static-page';
import { site } from '@/config/site';
import { formatLongMonth } from '@/lib/format';

const sections = [
  ['tos.lawfulTitle', 'tos.lawful'],
  ['tos.contentTitle', 'tos.content'],
  ['tos.accountTitle', 'tos.account'],
  ['tos.liabilityTitle', 'tos.liability'],
  ['tos.terminationTitle', 'tos.termination'],
  ['tos.lawTitle', 'tos.law'],
] as const;

export function Component() {
  const { t } = useTranslation();
  return (
    <StaticPage
      title={t('tos.title')}
      lead={t('tos.lead', { date: formatLongMonth(site.lastUpdated) })}
      legal
    >
      {sections.map(([title, text]) => (
        <Fragment key={title}>
          <h2>{t(title)}</h2>
          <p>{t(text)}</p>
        </Fragment>
      ))}
      <h2>{t('tos.contactTitle')}</h2>
      <ContactBlock email={site.supportEmail} addressLines={site.address.lines} />
    </StaticPage>
  );
}
