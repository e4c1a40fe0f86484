import { Trans, useTranslation } from 'react-i18next';
import { StaticPage } from '@/components/static-page';
import { site } from '@/config/site';

/** The eight topics docs/behaviour.md §1 lists for the guide; the empty-results advice links here. */
const topics = [
  { title: 'guide.verify.title', points: ['guide.verify.p1', 'guide.verify.p2', 'guide.verify.p3'] },
  {
    title: 'guide.redFlags.title',
    points: ['guide.redFlags.p1', 'guide.redFlags.p2', 'guide.redFlags.p3', 'guide.redFlags.p4'],
  },
  { title: 'guide.secure.title', points: ['guide.secure.p1', 'guide.secure.p2', 'guide.secure.p3'] },
  {
    title: 'guide.background.title',
    points: ['guide.background.p1', 'guide.background.p2', 'guide.background.p3'],
  },
  { title: 'guide.pressure.title', points: ['guide.pressure.p1', 'guide.pressure.p2', 'guide.pressure.p3'] },
  { title: 'guide.asset.title', points: ['guide.asset.p1', 'guide.asset.p2', 'guide.asset.p3'] },
  { title: 'guide.experts.title', points: ['guide.experts.p1', 'guide.experts.p2', 'guide.experts.p3'] },
  {
    title: 'guide.regulatory.title',
    points: ['guide.regulatory.p1', 'guide.regulatory.p2', 'guide.regulatory.p3'],
  },
] as const;

export function Component() {
  const { t } = useTranslation();
  return (
    <StaticPage title={t('guide.title')} lead={t('guide.lead')}>
      <ol className="!list-none !pl-0">
        {topics.map((topic, i) => (
          <li key={topic.title} className="bg-card mb-4 rounded-xl border p-5 shadow-sm">
            <h2 className="!mt-0 flex items-center gap-3 !text-xl">
              <span className="bg-primary text-primary-foreground flex size-8 shrink-0 items-center justify-center rounded-full text-sm">
                {i + 1}
              </span>
              {t(topic.title)}
            </h2>
            <ul className="mt-3">
              {topic.points.map((point) => (
                <li key={point}>{t(point)}</li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
      <p>
        <Trans
          i18nKey="guide.lostMoney"
          values={{ site: new URL(site.complaintSiteUrl).hostname }}
          components={{
            complaint: <a href={site.complaintSiteUrl} target="_blank" rel="noopener noreferrer" />,
          }}
        />
      </p>
    </StaticPage>
  );
}
