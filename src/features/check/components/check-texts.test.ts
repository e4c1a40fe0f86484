import { i18n } from '@/i18n';
import { canonicalIdentifier } from '@/lib/canonical';
import { checkMessage, type Brand, type CheckRules, type Lookup } from '@/lib/check-message';
import { reasonMessage, signalMessage } from './check-texts';

const brands: Brand[] = [
  {
    name: 'GCash',
    category: 'ewallet',
    official_domains: ['gcash.com'],
    keywords: ['gcash'],
    short_keywords: [],
  },
  { name: 'BPI', category: 'bank', official_domains: ['bpi.com.ph'], keywords: [], short_keywords: ['bpi'] },
];
const rules: CheckRules = { brands, shorteners: ['bit.ly'], abusedTlds: ['xyz'] };

/** One message that raises every kind of signal, and every way a host imitates a brand. */
const MESSAGE = [
  'BPI: your account is on hold. Reply to 0917 555 0101 or 0918 555 0102.',
  'Verify at gcash-verify.xyz, gcahs.com, gcash.net or',
  canonicalIdentifier('website', 'gcásh.com'),
  'or mail help@gcash-help.com. Short link bit.ly/x1, host http://203.0.113.7/login,',
  'wallet 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3',
].join(' ');
const lookups = new Map<string, Lookup>([
  ['+639175550101', { count: 3, riskLevel: 70, riskLabel: 'high' }],
  ['+639185550102', { count: 1, riskLevel: 20, riskLabel: 'low' }],
]);
const result = checkMessage(MESSAGE, rules, lookups);
const signals = result.items.flatMap((item) => item.signals.map((signal) => ({ item, signal })));

describe('check texts', () => {
  it('the message raises every signal the app words (so the checks below cover them all)', () => {
    expect(new Set(signals.map((s) => s.signal.code))).toEqual(
      new Set([
        'lookalike-brand',
        'reported',
        'shortener',
        'ip-host',
        'new-tld',
        'invalid-checksum',
        'personal-number-as-business',
      ]),
    );
    expect(new Set(signals.map((s) => s.signal.how).filter(Boolean))).toEqual(
      new Set(['label', 'typo', 'confusable', 'other-domain']),
    );
  });

  it('in English, every signal and reason reads exactly as the shared check words it for the API', () => {
    const t = i18n.getFixedT('en');
    for (const { item, signal } of signals) expect(signalMessage(t, signal, item)).toBe(signal.message);
    for (const reason of result.verdict.reasons)
      expect(reasonMessage(t, reason, result.items)).toBe(reason.message);
  });

  it('in Filipino, each is worded from its evidence, with the names and numbers kept', async () => {
    await i18n.loadLanguages('fil');
    const t = i18n.getFixedT('fil');
    const words = signals.map(({ item, signal }) => signalMessage(t, signal, item));
    for (const [i, text] of words.entries())
      expect(text, signals[i].signal.code).not.toBe(signals[i].signal.message);
    expect(words).toContain(
      'Ang address na ito ay may "gcash", pero hindi ito isa sa mga sariling website ng GCash (gcash.com).',
    );
    expect(words).toContain(
      'Ang domain ng e-mail na ito ay may "gcash", pero hindi ito isa sa mga sariling website ng GCash (gcash.com).',
    );
    expect(words).toContain('3 beses nang na-report sa ScamCheck; panganib mataas (70/100).');
    expect(words).toContain('1 beses nang na-report sa ScamCheck; panganib mababa (20/100).');
    expect(words).toContain('Mura at madalas gamitin ng mga scam site ang dulong ".xyz".');
    // Only BPI: the message speaks as BPI ("BPI: your account..."); GCash is only named in a link (issue 30).
    expect(words.find((w) => w.startsWith('Nagsasalita ang mensahe para sa '))).toMatch(
      /para sa BPI pero pinakokontak ka sa isang personal na mobile number\./,
    );
  });

  it('a reason whose signal is not among the items keeps the check’s own text', () => {
    const t = i18n.getFixedT('fil');
    const reason = { code: 'reported' as const, value: 'elsewhere', message: 'Reported 2 times.' };
    expect(reasonMessage(t, reason, result.items)).toBe('Reported 2 times.');
  });
});
