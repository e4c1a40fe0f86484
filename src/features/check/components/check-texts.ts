/**
 * The check's verdicts and signals in the reader's language. The shared check (supabase/functions/
 * _shared/check-message.ts) words them in English for the API (docs/behaviour.md §7); each signal
 * also carries its evidence (brand, matched name, count, TLD...), from which the app words it again
 * through the catalogues. A signal this file does not know keeps the check's own text.
 */
import type { ParseKeys, TFunction } from 'i18next';
import {
  TEXT_RULES,
  type CheckedItem,
  type CheckResult,
  type Signal,
  type TextSignalCode,
  type Verdict,
} from '@/lib/check-message';

export const verdictKeys: Record<Verdict['level'], { title: ParseKeys; summary: ParseKeys }> = {
  danger: { title: 'check.verdict.danger.title', summary: 'check.verdict.danger.summary' },
  suspicious: { title: 'check.verdict.suspicious.title', summary: 'check.verdict.suspicious.summary' },
  'no-known-risk': { title: 'check.verdict.noKnownRisk.title', summary: 'check.verdict.noKnownRisk.summary' },
  'nothing-found': {
    title: 'check.verdict.nothingFound.title',
    summary: 'check.verdict.nothingFound.summary',
  },
};

/** The text rules' words (issue 30), one pair of keys per rule of _shared/text-signals.ts. */
const textRuleKeys: Record<TextSignalCode, { label: ParseKeys; message: ParseKeys }> = {
  'credentials-request': {
    label: 'check.signal.text.credentials-request.label',
    message: 'check.signal.text.credentials-request.message',
  },
  prize: { label: 'check.signal.text.prize.label', message: 'check.signal.text.prize.message' },
  'job-offer': { label: 'check.signal.text.job-offer.label', message: 'check.signal.text.job-offer.message' },
  'loan-offer': {
    label: 'check.signal.text.loan-offer.label',
    message: 'check.signal.text.loan-offer.message',
  },
  'advance-fee': {
    label: 'check.signal.text.advance-fee.label',
    message: 'check.signal.text.advance-fee.message',
  },
  'account-threat': {
    label: 'check.signal.text.account-threat.label',
    message: 'check.signal.text.account-threat.message',
  },
  pressure: { label: 'check.signal.text.pressure.label', message: 'check.signal.text.pressure.message' },
  secrecy: { label: 'check.signal.text.secrecy.label', message: 'check.signal.text.secrecy.message' },
  'new-number': {
    label: 'check.signal.text.new-number.label',
    message: 'check.signal.text.new-number.message',
  },
  'family-emergency': {
    label: 'check.signal.text.family-emergency.label',
    message: 'check.signal.text.family-emergency.message',
  },
  'wrong-send': {
    label: 'check.signal.text.wrong-send.label',
    message: 'check.signal.text.wrong-send.message',
  },
  'parcel-fee': {
    label: 'check.signal.text.parcel-fee.label',
    message: 'check.signal.text.parcel-fee.message',
  },
  'investment-returns': {
    label: 'check.signal.text.investment-returns.label',
    message: 'check.signal.text.investment-returns.message',
  },
  'move-to-chat': {
    label: 'check.signal.text.move-to-chat.label',
    message: 'check.signal.text.move-to-chat.message',
  },
  'legal-threat': {
    label: 'check.signal.text.legal-threat.label',
    message: 'check.signal.text.legal-threat.message',
  },
  'government-aid': {
    label: 'check.signal.text.government-aid.label',
    message: 'check.signal.text.government-aid.message',
  },
  romance: { label: 'check.signal.text.romance.label', message: 'check.signal.text.romance.message' },
};
const TEXT_CODES = new Set<string>(TEXT_RULES.map((r) => r.code));
const textKeys = (code: string) => textRuleKeys[code as TextSignalCode];

const signalLabelKeys: Partial<Record<Signal['code'], ParseKeys>> = {
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

export function signalLabel(t: TFunction, signal: Pick<Signal, 'code'>): string {
  if (TEXT_CODES.has(signal.code)) return t(textKeys(signal.code).label);
  const key = signalLabelKeys[signal.code];
  return key ? t(key) : signal.code;
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
      if (TEXT_CODES.has(signal.code)) return t(textKeys(signal.code).message);
      return signal.message;
  }
}

/** A verdict's reason, worded like the signal it names (found by identifier and code). */
export function reasonMessage(
  t: TFunction,
  reason: Verdict['reasons'][number],
  items: CheckResult['items'],
  textSignals: CheckResult['textSignals'] = [],
): string {
  const text = textSignals.find((s) => s.code === reason.code);
  if (text) return `${t(textKeys(text.code).label)}. ${t(textKeys(text.code).message)}`;
  for (const item of items) {
    if (item.value !== reason.value) continue;
    const signal = item.signals.find((s) => s.code === reason.code);
    if (signal) return signalMessage(t, signal, item);
  }
  return reason.message;
}
