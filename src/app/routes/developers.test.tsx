import userEvent from '@testing-library/user-event';
import { i18n } from '@/i18n';
import { rangeKey } from '@/lib/range-lookup';
import { fakeSupabase, json, type FakeRequest } from '@/testing/fake-supabase';
import { renderApp, screen } from '@/testing/test-utils';
import { Component as Developers } from './developers';

afterEach(() => vi.restoreAllMocks());

/** The API's OpenAPI document (two calls) and a range answer holding the number's 2 reports. */
async function fakeApi() {
  const key = (await rangeKey('0917 123 4567'))!;
  return fakeSupabase((req: FakeRequest) => {
    if (req.path.endsWith('/api/v1/openapi.json')) {
      return json({
        paths: {
          '/search/{identifier}': { get: { summary: 'Search an identifier', tags: ['Reports'] } },
          '/reports': {
            post: { summary: 'File a report', tags: ['Reports'], security: [{ session: [] }] },
          },
        },
      });
    }
    if (req.path.endsWith(`/api/v1/range/${key.prefix}`)) {
      return json({
        prefix: key.prefix,
        entries: [{ suffix: key.suffix, count: 2, risk_level: 63, risk_label: 'high' }],
      });
    }
  });
}

async function tryRangeDemo(label: string, button: string) {
  const user = userEvent.setup({ delay: null });
  await user.type(screen.getByLabelText(label), '0917 123 4567');
  await user.click(screen.getByRole('button', { name: button }));
  return (await screen.findByTestId('range-result')).textContent;
}

describe('/developers', () => {
  it('explains the API in English, lists the served calls and runs the range demo', async () => {
    const api = await fakeApi();
    renderApp(<Developers />, { url: '/developers' });
    expect(screen.getByRole('heading', { level: 1, name: 'ScamCheck for developers' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'API keys' })).toHaveAttribute('href', '/dashboard/api-keys');
    expect(screen.getByText(/Without a key: 120 calls a minute/)).toBeInTheDocument();
    expect(await screen.findByText(/File a report \(signed in\)/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'statistics page' })).toHaveAttribute('href', '/statistics');

    expect(await tryRangeDemo('Try it: an identifier', 'Check privately')).toMatch(
      /^Sent only [0-9a-f]{5} \(of the hash of \+639171234567\)\. 2 reports, risk 63 \(high\)\.$/,
    );
    // Only the prefix left the page.
    expect(api.requests.map((r) => r.path).join(' ')).not.toContain('9171234567');
  });

  it('reads in Filipino, code samples and the API’s own texts unchanged', async () => {
    await i18n.changeLanguage('fil');
    await fakeApi();
    renderApp(<Developers />, { url: '/developers' });
    expect(
      screen.getByRole('heading', { level: 1, name: 'ScamCheck para sa mga developer' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Mga limit' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Mga API key' })).toHaveAttribute('href', '/dashboard/api-keys');
    expect(screen.getByText(/Walang key: 120 tawag kada minuto/)).toBeInTheDocument();
    // The API's descriptions stay as the API words them; the note is Filipino.
    expect(await screen.findByText(/File a report \(naka-log in\)/)).toBeInTheDocument();
    expect(screen.getByText(/Too many API requests from your address/)).toBeInTheDocument();

    expect(await tryRangeDemo('Subukan: isang identifier', 'I-check nang pribado')).toMatch(
      /^Ipinadala lang ang [0-9a-f]{5} \(mula sa hash ng \+639171234567\)\. 2 report, panganib 63 \(mataas\)\.$/,
    );
  });

  it('explains each feed with the files, a mail filter, a MISP instance and a TAXII client', async () => {
    await fakeApi();
    renderApp(<Developers />, { url: '/developers' });
    expect(screen.getByRole('heading', { level: 2, name: 'Threat-intelligence feeds' })).toBeInTheDocument();
    const base = /\/storage\/v1\/object\/public\/feeds\/clear\//;
    for (const [name, file] of [
      ['indicators.csv', 'indicators.csv'],
      ['indicators.json', 'indicators.json'],
      ['list.txt', 'list.txt'],
      ['MISP feed', 'misp/manifest.json'],
      ['STIX 2.1 bundles', 'stix/index.json'],
    ]) {
      const href = screen.getByRole('link', { name }).getAttribute('href') ?? '';
      expect(href).toMatch(base);
      expect(href.endsWith(`/${file}`)).toBe(true);
    }
    for (const heading of [
      'In a mail filter',
      'In a MISP instance',
      'With a TAXII 2.1 client',
      'Partner feed (TLP:AMBER)',
    ])
      expect(screen.getByRole('heading', { level: 3, name: heading })).toBeInTheDocument();
    expect(screen.getByText(/SCAMCHECK_DOMAIN/)).toBeInTheDocument();
    expect(screen.getByText(/Source format: MISP Feed/)).toBeInTheDocument();
    expect(screen.getByText(/as_pages\(collection.get_objects/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'taxii2/' })).toHaveAttribute(
      'href',
      expect.stringMatching(/\/api\/v1\/taxii2\/$/),
    );
    expect(document.body.textContent).toContain('# id,date_added,kind,value,canonical,written,status,');
  });

  it('explains the feeds in Filipino too', async () => {
    await i18n.changeLanguage('fil');
    await fakeApi();
    renderApp(<Developers />, { url: '/developers' });
    expect(
      screen.getByRole('heading', { level: 2, name: 'Mga threat-intelligence feed' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: 'Sa isang MISP instance' })).toBeInTheDocument();
    expect(screen.getByText(/Personal data ang mga ito ayon sa Data Privacy Act/)).toBeInTheDocument();
  });
});
