import { Link } from 'react-router-dom';
import { Trans, useTranslation } from 'react-i18next';
import { StaticPage } from '@/components/static-page';
import { paths } from '@/config/paths';

export function Component() {
  const { t } = useTranslation();
  return (
    <StaticPage title={t('about.title')} lead={t('about.lead')}>
      <p>{t('about.intro1')}</p>
      <p>{t('about.intro2')}</p>
      <h2>{t('about.whatTitle')}</h2>
      <ul>
        <li>
          <Trans
            i18nKey="about.whatSearch"
            components={{ strong: <strong />, home: <Link to={paths.home.getHref()} /> }}
          />
        </li>
        <li>
          <Trans i18nKey="about.whatReport" components={{ strong: <strong /> }} />
        </li>
        <li>
          <Trans i18nKey="about.whatNotify" components={{ strong: <strong /> }} />
        </li>
        <li>
          <Trans
            i18nKey="about.whatLearn"
            components={{
              strong: <strong />,
              guide: <Link to={paths.guide.getHref()} />,
              news: <Link to={paths.newsList.getHref()} />,
            }}
          />
        </li>
      </ul>
      <h2>{t('about.handlingTitle')}</h2>
      <p>{t('about.handling')}</p>
      <h2>{t('about.whoTitle')}</h2>
      <p>
        <Trans i18nKey="about.who" components={{ donate: <Link to={paths.donate.getHref()} /> }} />
      </p>
    </StaticPage>
  );
}
