import { ContactBlock, StaticPage } from '@/components/static-page';
import { site } from '@/config/site';

export function Component() {
  return (
    <StaticPage
      title="Terms of Service"
      lead={`Last updated ${site.lastUpdated}. By using ScamCheck you agree to these terms.`}
    >
      <h2>1. Lawful use</h2>
      <p>
        Use ScamCheck only for lawful purposes: to check identifiers, report scams you experienced or
        witnessed, and warn others. Do not file false, malicious or defamatory reports, harass anyone, upload
        content you have no right to share, or try to break, overload or scrape the service.
      </p>
      <h2>2. Your content and our licence to use it</h2>
      <p>
        You keep the rights to what you submit. By submitting a report, message or image you grant ScamCheck a
        non-exclusive, royalty-free, worldwide licence to host, review, display, and publish it in anonymised
        form, for as long as it is on the service. You confirm that what you submit is true to the best of
        your knowledge and that you may share it.
      </p>
      <h2>3. Account registration</h2>
      <p>
        Some features need an account. Give accurate information, confirm your e-mail address, keep your
        password secret and tell us at once if someone else uses your account. You are responsible for what is
        done with it.
      </p>
      <h2>4. Liability</h2>
      <p>
        Reports come from users. We review them, but we cannot guarantee that every report is accurate or
        complete, and an identifier without reports is not proof that it is safe. ScamCheck is provided "as
        is"; to the extent the law allows, we are not liable for losses arising from decisions you make based
        on the service.
      </p>
      <h2>5. Termination</h2>
      <p>
        You may delete your account at any time. We may suspend or close accounts and remove content that
        breaks these terms, with notice where reasonable.
      </p>
      <h2>6. Governing law</h2>
      <p>
        These terms are governed by the laws of the Republic of the Philippines. Disputes are subject to the
        exclusive jurisdiction of the proper courts of the City of Manila.
      </p>
      <h2>7. Contact</h2>
      <ContactBlock email={site.supportEmail} addressLines={site.address.lines} />
    </StaticPage>
  );
}
