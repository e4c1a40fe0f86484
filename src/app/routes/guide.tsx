import { StaticPage } from '@/components/static-page';
import { site } from '@/config/site';

/** The eight topics SPEC.md section 1 lists for the guide; the empty-results advice links here. */
const topics = [
  {
    title: 'Verify the source',
    points: [
      'Contact the company through the number or website printed on your card, bill or their official app, never through the link or number in the message.',
      'Banks, e-wallets and government agencies do not ask for your MPIN, password or one-time PIN by text, call or chat.',
      'Check the sender: official SMS come from registered sender names, not from ordinary 09xx numbers.',
    ],
  },
  {
    title: 'Look for red flags',
    points: [
      'Prizes, refunds or rewards you did not apply for.',
      'Returns that are too good to be true: "guaranteed" daily profits, doubling your money.',
      'Spelling mistakes, odd web addresses (gcash-rewards-ph.com instead of gcash.com), and shortened links.',
      'Requests to pay by e-wallet transfer to a personal account, gift cards or crypto.',
    ],
  },
  {
    title: 'Communicate securely',
    points: [
      'Keep conversations on the platform you started on; scammers move you to private chat apps to avoid its protections.',
      'Never share screenshots that show your account numbers, QR codes or one-time PINs.',
      'Turn on two-factor authentication for your e-mail, social media and e-wallets.',
    ],
  },
  {
    title: 'Run a background check',
    points: [
      'Search the mobile number, e-mail, website or wallet on ScamCheck before you pay.',
      'Search the seller or company name with the word "scam" and read recent reviews, not only the ones on their page.',
      'Ask for a video call or a meeting in a public place before paying for an item or a job "training fee".',
    ],
  },
  {
    title: 'Resist pressure tactics',
    points: [
      'Urgency is the scammer\u2019s best tool: "your account will be locked in 1 hour", "last slot today".',
      'A real bank or agency will let you call back. Hang up, wait, and call the official hotline yourself.',
      'Talk to a friend or family member before sending money; scammers ask you to keep it secret.',
    ],
  },
  {
    title: 'Research the asset',
    points: [
      'For websites: check how long the domain has existed and whether the address matches the brand exactly.',
      'For crypto: a wallet address that many people are told to pay into, or a platform that blocks withdrawals until you pay a "tax", is a scam.',
      'For e-wallet accounts: the name shown before you confirm a transfer should match who you think you are paying.',
    ],
  },
  {
    title: 'Consult experts',
    points: [
      'Call your bank or e-wallet provider\u2019s official hotline if you are unsure about a message.',
      'Ask a lawyer or a licensed financial adviser before investing sizeable amounts.',
      'If you already paid, report it at once to your bank or e-wallet and to the authorities; quick reports sometimes freeze the money.',
    ],
  },
  {
    title: 'Check the regulatory status',
    points: [
      'Investment offers must be registered with the Securities and Exchange Commission (SEC); check its list of advisories.',
      'Lenders and e-wallets must be licensed by the Bangko Sentral ng Pilipinas (BSP) or the SEC.',
      'Recruitment agencies for work abroad must be licensed by the Department of Migrant Workers.',
    ],
  },
];

export function Component() {
  return (
    <StaticPage
      title="Scam-check guide"
      lead="No search result does not mean safe. Go through these eight checks before you send money or personal details."
    >
      <ol className="!list-none !pl-0">
        {topics.map((topic, i) => (
          <li key={topic.title} className="bg-card mb-4 rounded-xl border p-5 shadow-sm">
            <h2 className="!mt-0 flex items-center gap-3 !text-xl">
              <span className="bg-primary text-primary-foreground flex size-8 shrink-0 items-center justify-center rounded-full text-sm">
                {i + 1}
              </span>
              {topic.title}
            </h2>
            <ul className="mt-3">
              {topic.points.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
      <p>
        Lost money already? Report it to your bank or e-wallet right away, then file a complaint with the
        national cybercrime authorities at{' '}
        <a href={site.complaintSiteUrl} target="_blank" rel="noopener noreferrer">
          {new URL(site.complaintSiteUrl).hostname}
        </a>
        .
      </p>
    </StaticPage>
  );
}
