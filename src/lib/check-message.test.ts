import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { canonicalIdentifier, canonicalIdentifierAuto } from './canonical';
import {
  checkMessage,
  extractIdentifiers,
  lookalikeBrand,
  looksLikeMessage,
  refang,
  type Brand,
  type CheckRules,
} from './check-message';

const brands: Brand[] = [
  {
    name: 'GCash',
    category: 'ewallet',
    official_domains: ['gcash.com'],
    keywords: ['gcash'],
    short_keywords: [],
  },
  {
    name: 'BPI',
    category: 'bank',
    official_domains: ['bpi.com.ph'],
    keywords: ['bpionline'],
    short_keywords: ['bpi'],
  },
  { name: 'BDO', category: 'bank', official_domains: ['bdo.com.ph'], keywords: [], short_keywords: ['bdo'] },
];
const rules: CheckRules = { brands, shorteners: ['bit.ly'], abusedTlds: ['xyz'] };

/** Text made of the pieces messages are made of, so the properties reach the extractors' branches. */
const messageish = fc
  .array(
    fc.oneof(
      fc.string(),
      fc.constantFrom(
        ' ',
        '\n',
        '0917 123 4567',
        '+63 (917) 123-4567',
        '639171234567',
        '09171234567',
        '+1 415 555 2671',
        'hxxps://',
        'http://',
        '[.]',
        '(.)',
        '[at]',
        'gcash',
        'bpi.com.ph',
        '.com',
        '.ph',
        '.xyz',
        '@',
        'xn--',
        'gcásh.com',
        'bit.ly/x',
        '192.168.1.1',
        '0x52908400098527886E0F7030069857D2E4169EE7',
        '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
        'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
        'OTP 123456',
        'Ref No.',
        '₱1,500.00',
        '2026-11-23',
        'ı',
        'ﬀ',
        '\u200b',
        '\ud800',
      ),
      fc.webUrl(),
      fc.emailAddress(),
      fc.domain(),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('extraction, property tests', () => {
  it('never throws, on any string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 400 }), messageish), (text) => {
        checkMessage(text, rules, new Map());
      }),
      { numRuns: 400 },
    );
  });

  it('gives every identifier the canonical form search uses for it', () => {
    fc.assert(
      fc.property(messageish, (text) => {
        for (const item of extractIdentifiers(text)) {
          // canonical is a fixed point of the canonical rules for its kind (what the reports store) ...
          expect(canonicalIdentifier(item.type, item.canonical)).toBe(item.canonical);
          // ... and searching for it (kind detected from its look) finds the same key
          if (item.type !== 'crypto' || item.valid)
            expect(canonicalIdentifierAuto(item.canonical)).toBe(item.canonical);
          // every written form of a mobile or e-mail is found by the one search, once undefanged as the
          // check does ('09171234567[at]bit.ly' is an e-mail only after [at] becomes @)
          if (item.type === 'email')
            for (const form of item.forms)
              expect(canonicalIdentifierAuto(refang(form).text)).toBe(item.canonical);
          // a number is found as written unless written with digits or marks search does not read
          // ('０９１７...', '0917/123/4567'), and then it is still the same number
          if (item.type === 'mobile')
            for (const form of item.forms) {
              const digits = form.normalize('NFKC').replace(/\D/g, '');
              if (/^[+\d][\d\s().-]*$/u.test(form.slice(form.search(/[+\d]/))))
                expect(canonicalIdentifierAuto(form)).toBe(item.canonical);
              else expect(digits.endsWith(item.canonical.slice(-10))).toBe(true);
            }
          expect(text).toContain(item.value);
        }
      }),
      // Cases random runs once found: a defanged e-mail whose name is a mobile number, a number
      // libphonenumber reads with an extension ("~0"), a link to a host under no public suffix and a
      // number after a stray bracket, an e-mail name with a colon.
      {
        numRuns: Number(process.env.FC_RUNS ?? 300),
        examples: [
          ['09171234567[at]bit.ly'],
          ['09171234567~0.a@a.aa'],
          ['http://09171234567'],
          ['[+63 (917) 123-4567'],
          ['http://2026-11-23192.168.1.1'],
          ['+.A0:a@a.aabit.ly/x'],
        ],
      },
    );
  });
});

describe('extraction', () => {
  it('merges the written forms of one identifier into one item, in order of appearance', () => {
    const items = extractIdentifiers(
      'Text 0926-555-1234 now! or 09265551234, site gcash-help.xyz, again +63 926 555 1234',
    );
    expect(items.map((i) => [i.type, i.canonical, i.forms])).toEqual([
      ['mobile', '+639265551234', ['0926-555-1234', '09265551234', '+63 926 555 1234']],
      ['website', 'gcash-help.xyz', ['gcash-help.xyz']],
    ]);
  });

  it('reads an e-mail after a colon without the word before it', () => {
    expect(extractIdentifiers('Re:juan@x.ph and mailto:ana@x.ph').map((i) => [i.value, i.canonical])).toEqual(
      [
        ['juan@x.ph', 'juan@x.ph'],
        ['mailto:ana@x.ph', 'ana@x.ph'],
      ],
    );
  });

  it('ends a number at its last digit, leaving out an extension search would not take', () => {
    expect(
      extractIdentifiers('Call 0917 123 4567 ext. 12 or +63 926 555 1234 x9, 09181234567~0').map((i) => [
        i.value,
        i.canonical,
      ]),
    ).toEqual([
      ['0917 123 4567', '+639171234567'],
      ['+63 926 555 1234', '+639265551234'],
      ['09181234567', '+639181234567'],
    ]);
  });

  it('finds a number beside other identifiers and in brackets, without the stray bracket', () => {
    expect(
      extractIdentifiers('text 0917 123 4567, 0x52908400098527886E0F7030069857D2E4169EE7 (09265551234)').map(
        (i) => i.value,
      ),
    ).toEqual(['0917 123 4567', '0x52908400098527886E0F7030069857D2E4169EE7', '09265551234']);
  });

  it('leaves out OTPs, references, order and tracking numbers, amounts, dates and times', () => {
    expect(
      extractIdentifiers(
        'Your OTP is 123456. Ref No. 9171234567. Order #240917123456. Tracking JT0917123456789. PHP 9,171,234.50 on 2026-09-17 at 10:30, 11/22/2026.',
      ),
    ).toEqual([]);
  });

  it('finds a defanged e-mail whose name is a mobile number as one e-mail, not a number', () => {
    expect(
      extractIdentifiers('email 09171234567[at]bit.ly now').map((i) => [i.type, i.canonical, i.forms]),
    ).toEqual([['email', '09171234567@bit.ly', ['09171234567[at]bit.ly']]]);
  });

  it('undoes defanging and reports the text as written', () => {
    expect(refang('hxxps://a[.]b(.)c').text).toBe('https://a.b.c');
    const [item] = extractIdentifiers('go to hxxps://gcash-verify[.]com/login now');
    expect(item).toMatchObject({
      type: 'website',
      value: 'hxxps://gcash-verify[.]com/login',
      canonical: 'gcash-verify.com',
    });
    expect(extractIdentifiers('mail juan[at]scam-mail[.]com')[0]).toMatchObject({
      type: 'email',
      canonical: 'juan@scam-mail.com',
    });
  });

  it('validates crypto checksums and keeps a broken one apart', () => {
    const items = extractIdentifiers(
      '0x52908400098527886E0F7030069857D2E4169EE7 and 0x52908400098527886e0F7030069857D2E4169EE7',
    );
    expect(items.map((i) => [i.network, i.valid])).toEqual([
      ['evm', true],
      ['evm', false],
    ]);
    const [bad] = checkMessage('send to 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', rules, new Map()).items;
    expect(bad.signals.map((s) => s.code)).toEqual(['invalid-checksum']);
  });
});

describe('signals', () => {
  it('flags look-alikes of a brand but never its own domains and their subdomains', () => {
    for (const host of ['gcash.com', 'm.gcash.com', 'bpi.com.ph', 'online.bpi.com.ph', 'bdo.com.ph'])
      expect(lookalikeBrand(host, brands), host).toBeNull();
    expect(lookalikeBrand('gcash-verify-ph.com', brands)).toMatchObject({ how: 'label', matched: 'gcash' });
    expect(lookalikeBrand('bpi.com.ph.secure-login.ru', brands)).toMatchObject({
      how: 'label',
      matched: 'bpi',
    });
    expect(lookalikeBrand('bpl.com.ph', brands)).toMatchObject({ how: 'typo', matched: 'bpi' });
    expect(lookalikeBrand('gcahs.com', brands)).toMatchObject({ how: 'typo', matched: 'gcash' });
    expect(lookalikeBrand(canonicalIdentifier('website', 'gcásh.com')!, brands)).toMatchObject({
      how: 'confusable',
    });
    expect(lookalikeBrand('gcash.net', brands)).toMatchObject({ how: 'other-domain' });
    // a short name is matched as a whole part only, and typos of it only under the brand's own suffix
    for (const host of ['bpiano.com', 'bdoor.com', 'bio.com', 'example.com'])
      expect(lookalikeBrand(host, brands), host).toBeNull();
  });

  it('explains the verdict with the signals that decided it', () => {
    const result = checkMessage(
      'BDO: your account is on hold. Verify at bit.ly/x1 or reply to 0917 555 0101.',
      rules,
      new Map([['+639175550101', { count: 3, riskLevel: 70, riskLabel: 'high' as const }]]),
    );
    expect(result.items.map((i) => [i.canonical, i.signals.map((s) => s.code)])).toEqual([
      ['bit.ly/x1', ['shortener']],
      ['+639175550101', ['reported', 'personal-number-as-business']],
    ]);
    expect(result.verdict.level).toBe('danger');
    expect(result.verdict.reasons).toEqual([
      { code: 'reported', value: '0917 555 0101', message: expect.stringMatching(/Reported 3 times/) },
    ]);
    expect(checkMessage('See you at 7, text me at 0917 123 4567', rules, new Map()).verdict.level).toBe(
      'no-known-risk',
    );
    expect(checkMessage('hello there', rules, new Map()).verdict.level).toBe('nothing-found');
  });
});

describe('looksLikeMessage', () => {
  it('sends one identifier to search and anything longer to the check', () => {
    for (const s of [
      '09171234567',
      '0917 123 4567',
      '+63 (917) 123-4567',
      'scam@mail.com',
      'https://gcash-verify.com/x',
    ])
      expect(looksLikeMessage(s), s).toBe(false);
    for (const s of ['GCash: verify at gcash-verify.com', 'call 0917 123 4567', 'line one\nline two'])
      expect(looksLikeMessage(s), s).toBe(true);
  });
});

describe('npm specifiers of the shared code', () => {
  it('pin the versions package.json installs for the app', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const shared = path.join(root, 'supabase/functions/_shared');
    const specifiers = ['check-message.ts', 'crypto-address.ts'].flatMap((f) =>
      [
        ...fs
          .readFileSync(path.join(shared, f), 'utf8')
          .matchAll(/from 'npm:((?:@[^/@]+\/)?[^/@]+)@([^/']+)/g),
      ].map((m) => [m[1], m[2]]),
    );
    expect(specifiers.length).toBeGreaterThanOrEqual(7);
    for (const [name, version] of specifiers) expect(pkg.dependencies[name], name).toBe(version);
  });
});
