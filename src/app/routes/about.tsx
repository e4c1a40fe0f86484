import { Link } from 'react-router-dom';
import { StaticPage } from '@/components/static-page';
import { paths } from '@/config/paths';

export function Component() {
  return (
    <StaticPage
      title="About ScamCheck"
      lead="A free, community-driven service that helps Filipinos check before they pay."
    >
      <p>
        Online scams in the Philippines change shape every month: fake e-wallet rewards, parcel "redelivery
        fees", task jobs that end in a crypto deposit, romance scams aimed at overseas workers. What they have
        in common is that the same mobile numbers, e-mail addresses, websites and wallets are used against
        many people before they disappear.
      </p>
      <p>
        ScamCheck collects reports from victims so that the next person can search an identifier before
        sending money or personal details. A number is found however it is written (0917 123 4567, 09171234567
        and +63 917 123 4567 are the same), and so are websites and e-mail addresses in any letter case.
      </p>
      <h2>What you can do here</h2>
      <ul>
        <li>
          <strong>Search</strong> a mobile number, e-mail, website, e-wallet or crypto address from the{' '}
          <Link to={paths.home.getHref()}>home page</Link> and see how often it was reported, where the
          victims were and how risky it looks.
        </li>
        <li>
          <strong>Report a scam</strong> with a free account, attaching a screenshot as evidence. Reports are
          reviewed before they are marked verified.
        </li>
        <li>
          <strong>Get notified</strong> when a number, e-mail or wallet you care about is reported.
        </li>
        <li>
          <strong>Learn</strong> the warning signs from our{' '}
          <Link to={paths.guide.getHref()}>scam-check guide</Link> and the latest{' '}
          <Link to={paths.newsList.getHref()}>scam news</Link>.
        </li>
      </ul>
      <h2>How we handle reports</h2>
      <p>
        Reporters stay anonymous to the public: we never show who filed a report. Visitors see the type of
        incident, the kind of account, the place and the dates; signed-in users see the details. If the owner
        of a reported account asks for its removal, the reporter is told and can answer or delete the report;
        without an answer within one week the report is removed.
      </p>
      <h2>Who we are</h2>
      <p>
        ScamCheck is run by volunteers and funded by <Link to={paths.donate.getHref()}>donations</Link>. We
        are not a government agency and not affiliated with law enforcement. If you lost money, also file a
        complaint with the authorities and your bank or e-wallet provider.
      </p>
    </StaticPage>
  );
}
