import { Link } from 'react-router-dom';
import { ContactBlock, StaticPage } from '@/components/static-page';
import { paths } from '@/config/paths';
import { site } from '@/config/site';

export function Component() {
  const faqs = [
    {
      q: 'Are reports checked before they are added?',
      a: 'Yes. Every report is reviewed by our team before it is marked verified. Until then it is shown as not-verified, and it counts only a little towards the risk level of the identifier.',
    },
    {
      q: 'Will my name or e-mail be shown with my report?',
      a: 'No. Your personal information is never shown publicly. Visitors see the incident type, the kind of account, the place and the dates; even signed-in users never see who filed a report.',
    },
    {
      q: 'Can I update or delete a report?',
      a: (
        <>
          Yes. You can edit or delete your reports from your dashboard under My Reports, or contact support at{' '}
          <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a> and we will update or delete it for
          you.
        </>
      ),
    },
    {
      q: 'Is ScamCheck part of the police or a government agency?',
      a: (
        <>
          No. ScamCheck is not affiliated with any law-enforcement agency. If you were scammed, also file a
          complaint with the authorities at{' '}
          <a href={site.complaintSiteUrl} target="_blank" rel="noopener noreferrer">
            {new URL(site.complaintSiteUrl).hostname}
          </a>{' '}
          and tell your bank or e-wallet provider.
        </>
      ),
    },
    {
      q: 'My number or website was reported by mistake. What can I do?',
      a: (
        <>
          <Link to={paths.contact.getHref()}>Contact us</Link> and ask for its removal. We notify the
          reporter, who can answer or delete the report. If the reporter does not respond within one week, the
          report is removed automatically.
        </>
      ),
    },
  ];
  return (
    <StaticPage title="Frequently asked questions">
      <dl className="flex flex-col gap-6">
        {faqs.map(({ q, a }) => (
          <div key={q} className="border-b pb-6 last:border-0">
            <dt className="text-lg font-semibold">{q}</dt>
            <dd className="text-muted-foreground mt-2">{a}</dd>
          </div>
        ))}
      </dl>
      <h2>Still have a question?</h2>
      <ContactBlock email={site.supportEmail} addressLines={site.address.lines} />
    </StaticPage>
  );
}
