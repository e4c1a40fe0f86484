import { Link } from 'react-router-dom';
import { ContactBlock, StaticPage } from '@/components/static-page';
import { paths } from '@/config/paths';
import { site } from '@/config/site';

export function Component() {
  return (
    <StaticPage
      title="Privacy Policy"
      lead={`Last updated ${site.lastUpdated}. How ScamCheck collects, uses and protects your information.`}
    >
      <p>
        ScamCheck processes personal data in line with the Data Privacy Act of 2012 (Republic Act No. 10173)
        and its implementing rules. This policy explains what we collect, why, and the choices you have.
      </p>
      <h2>What we collect</h2>
      <ul>
        <li>
          <strong>Account data</strong>: your name, e-mail address and, if you add one, an avatar. Passwords
          are stored only as secure hashes.
        </li>
        <li>
          <strong>Reports</strong>: what you enter in a report (the reported account, incident details, dates,
          place and evidence images).
        </li>
        <li>
          <strong>Searches and visits</strong>: what was searched and an approximate location (city and
          country) derived on our server. We do not store raw IP addresses.
        </li>
        <li>
          <strong>Messages</strong>: what you send through the{' '}
          <Link to={paths.contact.getHref()}>contact form</Link>.
        </li>
        <li>
          <strong>Notify Me</strong>: the identifiers you ask us to watch for you.
        </li>
      </ul>
      <h2>How we use it</h2>
      <ul>
        <li>To show search results and warn others about reported identifiers.</li>
        <li>To review reports, handle removal requests and answer your messages.</li>
        <li>To notify you when an identifier you registered is reported.</li>
        <li>To produce anonymous statistics about scams.</li>
      </ul>
      <p>We do not sell your data and we do not use it for advertising.</p>
      <h2>What others can see</h2>
      <p>
        The public sees the type of incident, the kind of account, the place and the dates of a report. Your
        name and e-mail are never shown with your reports. Evidence images are visible only to you and our
        moderators.
      </p>
      <h2>How long we keep it</h2>
      <p>
        Reports stay online while they are relevant and are removed when you delete them or after a successful
        removal request. Deleting your account deletes your profile and detaches your name from your reports.
      </p>
      <h2>Your rights</h2>
      <p>
        You may access, correct, object to the processing of, or ask for the deletion of your personal data,
        and you may complain to the National Privacy Commission. To exercise these rights, write to us:
      </p>
      <ContactBlock email={site.supportEmail} addressLines={site.address.lines} />
    </StaticPage>
  );
}
