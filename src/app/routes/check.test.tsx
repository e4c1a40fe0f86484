import userEvent from '@testing-library/user-event';
import { i18n } from '@/i18n';
import { fakeSupabase, json, type FakeRequest } from '@/testing/fake-supabase';
import { renderApp, screen, waitFor, within } from '@/testing/test-utils';
import { padRange, rangeBody, rangeKey, type RangeEntry } from '@/lib/range-lookup';
import { Component as CheckPage, messageFrom } from './check';

const brands = [
  {
    name: 'GCash',
    category: 'ewallet',
    official_domains: ['gcash.com'],
    keywords: ['gcash'],
    short_keywords: [],
  },
  { name: 'BDO', category: 'bank', official_domains: ['bdo.com.ph'], keywords: [], short_keywords: ['bdo'] },
];
const lists = [
  { list: 'shortener', value: 'bit.ly' },
  { list: 'abused-tld', value: 'xyz' },
];

const REPORTED = '+639175550101';
const RANGE_PATH = /^\/functions\/v1\/api\/v1\/range\/([0-9a-f]{5})$/;

/**
 * The backend as the page sees it: the rules tables, and the range lookup as the api function
 * answers it (padded, fixed-width), where one number has 4 reports.
 */
function fakeDatabase({ rangeStatus = 200 }: { rangeStatus?: number } = {}) {
  return fakeSupabase(async (req: FakeRequest) => {
    if (req.path === '/rest/v1/brands') return json(brands);
    if (req.path === '/rest/v1/check_domain_lists') return json(lists);
    if (req.path === '/rest/v1/rpc/owner_statements_in_ranges') {
      // The verified owner of the reported number answered (issue 32); the answer carries its full hash.
      const key = (await rangeKey(REPORTED))!;
      const asked = (req.body as { prefixes: string[] }).prefixes;
      return json(
        asked.includes(key.prefix)
          ? [
              {
                hash: key.hash,
                statement: 'This is our delivery line. We never ask for codes.',
                updated_at: '2026-11-20T08:00:00Z',
                verified_by: 'sms',
                verified_at: '2026-11-19T08:00:00Z',
              },
            ]
          : [],
      );
    }
    const range = RANGE_PATH.exec(req.path);
    if (range) {
      if (rangeStatus !== 200)
        return json(
          { code: rangeStatus, msg: 'Too many requests. You can call again at 12:00.' },
          { status: rangeStatus },
        );
      const key = (await rangeKey(REPORTED))!;
      const real: RangeEntry[] =
        key.prefix === range[1] ? [{ suffix: key.suffix, count: 4, risk_level: 72, risk_label: 'high' }] : [];
      return new Response(rangeBody(range[1], padRange(range[1], real)), {
        headers: { 'content-type': 'application/json' },
      });
    }
    return undefined;
  });
}

const MESSAGE =
  'BDO: Your account is on hold. Verify at gcash-verify.xyz/login or text 0917 555 0101 (09175550101). Official: www.bdo.com.ph';

afterEach(() => vi.restoreAllMocks());

describe('/check', () => {
  it('shows every identifier once, in order, with reports, signals and the verdict with its reasons', async () => {
    const api = fakeDatabase();
    const user = userEvent.setup();
    renderApp(<CheckPage />, { url: '/check' });
    await user.type(screen.getByLabelText('Message'), MESSAGE);
    await user.click(screen.getByRole('button', { name: 'Check message' }));

    const rows = await screen.findAllByRole('listitem', { name: /^(Website|Mobile No\.)/ });
    expect(rows.map((r) => r.getAttribute('aria-label'))).toEqual([
      'Website gcash-verify.xyz',
      'Mobile No. +639175550101',
      'Website bdo.com.ph',
    ]);
    const [site, phone, official] = rows;
    expect([...site.querySelectorAll('[data-signal]')].map((s) => s.getAttribute('data-signal'))).toEqual([
      'lookalike-brand',
      'new-tld',
    ]);
    expect(within(site).getByText(/not one of GCash's own websites \(gcash\.com\)/)).toBeInTheDocument();
    expect(within(phone).getByText('0917 555 0101 · 09175550101')).toBeInTheDocument();
    expect(within(phone).getByText('high risk (72/100)')).toBeInTheDocument();
    expect([...phone.querySelectorAll('[data-signal]')].map((s) => s.getAttribute('data-signal'))).toEqual([
      'reported',
      'personal-number-as-business',
    ]);
    expect(official.querySelectorAll('[data-signal]')).toHaveLength(0);
    expect(within(official).getByRole('link', { name: 'All reports' })).toHaveAttribute(
      'href',
      '/search/bdo.com.ph',
    );

    const verdict = screen.getByRole('alert');
    expect(within(verdict).getByText('Likely a scam')).toBeInTheDocument();
    expect(
      within(within(verdict).getByTestId('verdict-reasons'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringMatching(/^gcash-verify\.xyz\/login: This address contains "gcash"/),
      expect.stringMatching(/^0917 555 0101: Reported 4 times/),
    ]);
    // Looked up privately: one range request per identifier, each sending 5 hex characters of its
    // hash; neither the message nor any identifier leaves the page, and check_identifiers is not used.
    const prefixes = await Promise.all(
      ['gcash-verify.xyz', REPORTED, 'bdo.com.ph'].map(async (v) => (await rangeKey(v))!.prefix),
    );
    expect(api.sent('GET', '/functions/v1/api/v1/range/').map((r) => r.path)).toEqual(
      prefixes.map((p) => `/functions/v1/api/v1/range/${p}`),
    );
    expect(api.sent('POST', '/rest/v1/rpc/check_identifiers')).toHaveLength(0);
    const sent = JSON.stringify(api.requests.map((r) => [r.url.href, r.body]));
    for (const secret of ['on hold', 'gcash-verify', '9175550101', 'bdo.com.ph'])
      expect(sent).not.toContain(secret);
    expect(within(phone).getByTestId('sent-prefix')).toHaveTextContent(
      `only ${prefixes[1]}, the start of its fingerprint`,
    );
    const note = screen.getByTestId('private-note');
    expect(note).toHaveTextContent(/^Checked privately\. Your message stayed on this device\./);
    expect(within(note).getByRole('link', { name: 'How it works' })).toHaveAttribute('href', '/developers');
  });

  it('lists what the words say beside a strong reason, each rule with its words (issue 30)', async () => {
    fakeDatabase();
    const user = userEvent.setup();
    renderApp(<CheckPage />, { url: '/check' });
    await user.type(
      screen.getByLabelText('Message'),
      'Congratulations, you have won P50,000! Claim it at gcash-verify.xyz/claim',
    );
    await user.click(screen.getByRole('button', { name: 'Check message' }));
    const verdict = await screen.findByRole('alert');
    await within(verdict).findByText('Likely a scam');
    // The look-alike address decides the verdict; the prize wording is not among its reasons, yet shown.
    const more = within(verdict).getByTestId('more-text-signals');
    const prize = more.querySelector('[data-signal="prize"]');
    expect(prize?.textContent).toMatch(/"you have won"/i);
    expect(within(verdict).getByText('The words also show:')).toBeInTheDocument();
  });

  it("shows the verified owner's answer next to the reports, asked by hash prefix only (issue 32)", async () => {
    const api = fakeDatabase();
    renderApp(<CheckPage />, { url: `/check?text=${encodeURIComponent(MESSAGE)}` });
    const phone = await screen.findByRole('listitem', { name: 'Mobile No. +639175550101' });
    const answer = await within(phone).findByTestId('check-owner-answer');
    expect(answer).toHaveTextContent("The owner's answer");
    expect(answer).toHaveTextContent('This is our delivery line. We never ask for codes.');
    expect(answer).toHaveTextContent('Ownership verified by SMS code');
    expect(within(phone).getByText('high risk (72/100)')).toBeInTheDocument();
    // Only the number with an answer shows one.
    const site = screen.getByRole('listitem', { name: 'Website gcash-verify.xyz' });
    expect(within(site).queryByTestId('check-owner-answer')).not.toBeInTheDocument();
    const [call] = api.sent('POST', '/rest/v1/rpc/owner_statements_in_ranges');
    const prefixes = await Promise.all(
      ['gcash-verify.xyz', REPORTED, 'bdo.com.ph'].map(async (v) => (await rangeKey(v))!.prefix),
    );
    expect(call.body).toEqual({ prefixes });
  });

  it('asks once per hash prefix, however often identifiers repeat', async () => {
    const api = fakeDatabase();
    renderApp(<CheckPage />, {
      url: `/check?text=${encodeURIComponent('Text 09175550101 or +63 917 555 0101, or 0917-555-0101 now')}`,
    });
    expect(await screen.findByText('high risk (72/100)')).toBeInTheDocument();
    expect(api.sent('GET', '/functions/v1/api/v1/range/')).toHaveLength(1);
  });

  it('says why when the range lookup refuses, and shows no verdict', async () => {
    fakeDatabase({ rangeStatus: 429 });
    renderApp(<CheckPage />, { url: `/check?text=${encodeURIComponent(MESSAGE)}` });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not check the message: Too many requests. You can call again at 12:00.',
    );
    expect(screen.queryByText('Likely a scam')).not.toBeInTheDocument();
  });

  it('sends a signed-out visitor to log in and back to the same check', async () => {
    fakeDatabase();
    const user = userEvent.setup();
    const { router } = renderApp(<CheckPage />, { url: `/check?text=${encodeURIComponent(MESSAGE)}` });
    const [first] = await screen.findAllByRole('button', { name: 'Report this' });
    await user.click(first);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    const back = new URLSearchParams(router.state.location.search).get('redirectTo')!;
    expect(back).toBe(`/check?text=${encodeURIComponent(MESSAGE)}`);
  });

  it('refuses a message over 5,000 characters without looking anything up', async () => {
    const api = fakeDatabase();
    const user = userEvent.setup();
    renderApp(<CheckPage />, { url: '/check' });
    const box = screen.getByLabelText('Message');
    await user.click(box);
    await user.paste('x '.repeat(2501));
    await user.click(screen.getByRole('button', { name: 'Check message' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'That is 5,002 characters; at most 5,000 can be checked.',
    );
    expect(api.requests).toHaveLength(0);
  });

  it('says when the message holds nothing to check', async () => {
    fakeDatabase();
    renderApp(<CheckPage />, { url: '/check?text=See%20you%20at%207' });
    expect(await screen.findByText('Nothing to check')).toBeInTheDocument();
  });
});

describe('/check with the text of an image', () => {
  it('shows the text read from the image with what was looked up marked, and the usual verdict when it read well', async () => {
    fakeDatabase();
    const { router } = renderApp(<CheckPage />, { url: '/check' });
    await router.navigate('/check', {
      state: { text: MESSAGE, fromImage: { text: MESSAGE, confidence: 91.4 } },
    });
    expect(await screen.findByText('Likely a scam')).toBeInTheDocument();
    const panel = screen.getByTestId('image-text');
    expect(within(panel).getByRole('heading', { name: 'Read from your image' })).toBeInTheDocument();
    expect(within(panel).getByText(/91% sure/)).toBeInTheDocument();
    expect([...panel.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(
      expect.arrayContaining(['gcash-verify.xyz/login', '0917 555 0101']),
    );
  });

  it('never says "No warning signs found" or "Nothing to check" for an image it could not read well', async () => {
    fakeDatabase();
    const { router } = renderApp(<CheckPage />, { url: '/check' });
    const text = 'Hel1o p0, s3e y0u';
    await router.navigate('/check', { state: { text, fromImage: { text, confidence: 42 } } });
    expect(await screen.findByText('Could not read enough to say')).toBeInTheDocument();
    expect(screen.queryByText('Nothing to check')).not.toBeInTheDocument();
    expect(screen.queryByText('No warning signs found')).not.toBeInTheDocument();
    expect(
      within(screen.getByTestId('image-text')).getByText(/could not be read clearly \(42% sure\)/),
    ).toBeInTheDocument();
  });

  it('keeps the image origin when the text is corrected and checked again', async () => {
    fakeDatabase();
    const user = userEvent.setup();
    const { router } = renderApp(<CheckPage />, { url: '/check' });
    await router.navigate('/check', {
      state: { text: 'Call 0917 555 01O1', fromImage: { text: 'Call 0917 555 01O1', confidence: 55 } },
    });
    // The message box is mounted again for the new text: take it once it holds the image's text.
    const box = await screen.findByDisplayValue('Call 0917 555 01O1');
    await user.clear(box);
    await user.type(box, 'Call 0917 555 0101');
    await user.click(screen.getByRole('button', { name: 'Check message' }));
    expect(await screen.findByText('high risk (72/100)', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(router.state.location.state).toMatchObject({ fromImage: { confidence: 55 } });
    expect(screen.getByTestId('image-text')).toHaveTextContent('Call 0917 555 01O1');
  });
});

describe('/check in Filipino', () => {
  it('words the page, the verdict, the signals and the private note in Filipino', async () => {
    await i18n.changeLanguage('fil');
    fakeDatabase();
    const user = userEvent.setup();
    renderApp(<CheckPage />, { url: '/check' });
    expect(screen.getByRole('heading', { level: 1, name: 'I-check ang isang mensahe' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'I-check ang mensahe' }));
    expect(screen.getByRole('alert')).toHaveTextContent('I-paste ang mensaheng natanggap mo');
    await user.type(screen.getByLabelText('Mensahe'), MESSAGE);
    await user.click(screen.getByRole('button', { name: 'I-check ang mensahe' }));

    const [site, phone] = await screen.findAllByRole('listitem', { name: /^(Website|Mobile No\.)/ });
    expect(within(site).getByText('Gumagaya sa isang brand')).toBeInTheDocument();
    expect(
      within(site).getByText(/hindi ito isa sa mga sariling website ng GCash \(gcash\.com\)/),
    ).toBeInTheDocument();
    expect(within(phone).getByText('mataas na panganib (72/100)')).toBeInTheDocument();
    expect(within(phone).getByRole('button', { name: 'I-report ito' })).toBeInTheDocument();
    const verdict = screen.getByRole('alert');
    expect(within(verdict).getByText('Malamang na scam')).toBeInTheDocument();
    expect(
      within(within(verdict).getByTestId('verdict-reasons'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringMatching(/^gcash-verify\.xyz\/login: Ang address na ito ay may "gcash"/),
      expect.stringMatching(/^0917 555 0101: 4 beses nang na-report sa ScamCheck; panganib mataas/),
    ]);
    expect(screen.getByRole('heading', { name: 'Nakita sa mensahe (3)' })).toBeInTheDocument();
    expect(screen.getByText(/^Hindi namin binubuksan ang mga link\./)).toBeInTheDocument();
  });

  it('says in Filipino when the lookup fails, keeping the server’s own message', async () => {
    await i18n.changeLanguage('fil');
    fakeDatabase({ rangeStatus: 429 });
    renderApp(<CheckPage />, { url: `/check?text=${encodeURIComponent(MESSAGE)}` });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Hindi ma-check ang mensahe: Too many requests. You can call again at 12:00.',
    );
  });
});

describe('messageFrom', () => {
  it('takes the page state first, else the share target fields title, text and url, without repeats', () => {
    expect(messageFrom({ text: 'from state' }, new URLSearchParams('text=ignored'))).toBe('from state');
    expect(
      messageFrom(null, new URLSearchParams('title=Globe&text=Claim+now&url=https%3A%2F%2Fglobe-promo.xyz')),
    ).toBe('Globe\nClaim now\nhttps://globe-promo.xyz');
    expect(messageFrom(null, new URLSearchParams('text=https%3A%2F%2Fx.xyz&url=https%3A%2F%2Fx.xyz'))).toBe(
      'https://x.xyz',
    );
  });
});
