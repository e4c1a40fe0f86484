/**
 * The check's verdicts and signals in the reader's language. The shared check (supabase/functions/
 * _shared/check-message.ts) words them in English for the API (docs/behaviour.md §7); each signal
 * also carries its evidence (brand, matched name, count, TLD...), from which the app words it again
 * through the catalogues. A signal this file does not know keeps the check's own text.
 */
import type { ParseKeys, TFunction } from 'i18next';
import type { CheckedItem, CheckResult, Signal, Verdict } from '@/lib/check-message';

export const verdictKeys: Record<Verdict['level'], { title: ParseKeys; summary: ParseKeys }> = {
  danger: { title: 'check.verdict.danger.title', summary: 'check.verdict.danger.summary' },
  suspicious: { title: 'check.verdict.suspicious.title', summary: 'check.verdict.suspicious.summary' },
  'no-known-risk': { title: 'check.verdict.noKnownRisk.title', summary: 'check.verdict.noKnownRisk.summary' },
  'nothing-found': {
    title: 'check.verdict.nothingFound.title',
    summary: 'check.verdict.nothingFound.summary',
  },
};

const signalLabelKeys: Record<Signal['code'], ParseKeys> = {
  'lookalike-brand': 'check.signal.lookalikeBrand.label',
  reported: 'check.signal.reported.label',
  shortener: 'check.signal.shortener.label',
  'ip-host': 'check.signal.ipHost.label',
  'new-tld': 'check.signal.newTld.label',
  'invalid-checksum': 'check.signal.invalidChecksum.label',
  'personal-number-as-business': 'check.signal.personalNumber.label',
};

const lookalikeHowKeys: Record<string, ParseKeys> = {
  label: 'check.signal.lookalikeBrand.contains',
  typo: 'check.signal.lookalikeBrand.typo',
  confusable: 'check.signal.lookalikeBrand.confusable',
  'other-domain': 'check.signal.lookalikeBrand.otherDomain',
};

const riskKeys: Record<string, ParseKeys> = {
  low: 'search.summary.risk.low',
  medium: 'search.summary.risk.medium',
  high: 'search.summary.risk.high',
};

/** 'high' as the reader says it ('mataas'); an unknown label as given. */
export function riskWord(t: TFunction, label: string): string {
  return label in riskKeys ? t(riskKeys[label]) : label;
}

export function signalLabel(t: TFunction, signal: Signal): string {
  return signalLabelKeys[signal.code] ? t(signalLabelKeys[signal.code]) : signal.code;
}

/** One signal's explanation, worded from its evidence. */
export function signalMessage(t: TFunction, signal: Signal, item: Pick<CheckedItem, 'type'>): string {
  const e = signal as Signal & Record<string, unknown>;
  switch (signal.code) {
    case 'lookalike-brand': {
      const how = lookalikeHowKeys[String(e.how)];
      if (!how || !Array.isArray(e.officialDomains)) return signal.message;
      return t('check.signal.lookalikeBrand.message', {
        subject: t(
          item.type === 'email' ? 'check.signal.lookalikeBrand.email' : 'check.signal.lookalikeBrand.address',
        ),
        how: t(how, { matched: String(e.matched) }),
        brand: String(e.brand),
        domains: e.officialDomains.join(', '),
      });
    }
    case 'reported':
      // Issue 27: a risk that rests on unreviewed reports only says so.
      return t(e.verifiedCount === 0 ? 'check.signal.reported.unreviewed' : 'check.signal.reported.message', {
        count: Number(e.count),
        label: riskWord(t, String(e.riskLabel)),
        level: Number(e.riskLevel),
      });
    case 'shortener':
      return t('check.signal.shortener.message');
    case 'ip-host':
      return t('check.signal.ipHost.message');
    case 'new-tld':
      return t('check.signal.newTld.message', { tld: String(e.tld) });
    case 'invalid-checksum':
      return t('check.signal.invalidChecksum.message');
    case 'personal-number-as-business':
      return Array.isArray(e.brands)
        ? t('check.signal.personalNumber.message', { brands: e.brands.join(', ') })
        : signal.message;
    default:
      return signal.message;
  }
}

/** A verdict's reason, worded like the signal it names (found by identifier and code). */
export function reasonMessage(
  t: TFunction,
  reason: Verdict['reasons'][number],
  items: CheckResult['items'],
): string {
  for (const item of items) {
    if (item.value !== reason.value) continue;
    const signal = item.signals.find((s) => s.code === reason.code);
    if (signal) return signalMessage(t, signal, item);
  }
  return reason.message;
}
