/**
 * Display helpers shared by every page that shows reports. Dates, numbers and pesos follow the
 * reader's language, formatted for the Philippines (en-PH or fil-PH).
 */
import { currentLanguage, i18n, INTL_LOCALES, type Language } from '@/i18n';

/** One formatter per language and option set; Intl formatters are costly to build. */
function memoPerLanguage<T>(build: (locale: string) => T): () => T {
  const cache = new Map<Language, T>();
  return () => {
    const language = currentLanguage();
    let value = cache.get(language);
    if (value === undefined) {
      value = build(INTL_LOCALES[language]);
      cache.set(language, value);
    }
    return value;
  };
}

/** The current Intl locale: 'en-PH' or 'fil-PH'. */
export function intlLocale(): string {
  return INTL_LOCALES[currentLanguage()];
}

const dateFormat = memoPerLanguage(
  (locale) =>
    new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }),
);

/** '2026-11-20' or an ISO timestamp as 'Nov 20, 2026' ('Nob 20, 2026'); dates are calendar days, so shown in UTC. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? value : dateFormat().format(date);
}

const monthFormat = memoPerLanguage(
  (locale) => new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' }),
);

/** A month ('2026-11-01') as 'Nov 2026'. */
export function formatMonth(value: Date | string): string {
  const date =
    typeof value === 'string' ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value) : value;
  return monthFormat().format(date);
}

const longMonthFormat = memoPerLanguage(
  (locale) => new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }),
);

/** A month in words: 'November 2026' ('Nobyembre 2026'). */
export function formatLongMonth(value: string): string {
  return longMonthFormat().format(new Date(value.length === 10 ? `${value}T00:00:00Z` : value));
}

const dayFormat = memoPerLanguage(
  (locale) => new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }),
);

/** A day without its year: 'Nov 20'. */
export function formatDay(value: Date | string): string {
  const date =
    typeof value === 'string' ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value) : value;
  return dayFormat().format(date);
}

/** Amounts are Philippine pesos, the currency victims here lose. */
const pesoFormat = memoPerLanguage(
  (locale) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'PHP', maximumFractionDigits: 2 }),
);

export function formatAmount(value: number | string | null | undefined): string {
  return pesoFormat().format(Number(value ?? 0));
}

const numberFormat = memoPerLanguage((locale) => new Intl.NumberFormat(locale));

/** A count with the reader's grouping: '12,345'. */
export function formatNumber(value: number | string): string {
  return numberFormat().format(Number(value));
}

const kbFormat = memoPerLanguage((locale) => new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }));
const mbFormat = memoPerLanguage((locale) => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }));

/** A file size as people read it: '312 KB', '1.3 MB' (1 KB = 1000 bytes, as the 500,000-byte limit counts). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${numberFormat().format(bytes)} B`;
  if (bytes < 1_000_000) return `${kbFormat().format(bytes / 1000)} KB`;
  return `${mbFormat().format(bytes / 1_000_000)} MB`;
}

const compactFormat = memoPerLanguage(
  (locale) => new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }),
);

/** A short count for chart axes: '12K'. */
export function formatCompact(value: number): string {
  return compactFormat().format(value);
}

const compactPesoFormat = memoPerLanguage(
  (locale) =>
    new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: 'PHP',
      notation: 'compact',
      maximumFractionDigits: 1,
    }),
);

/** A short peso amount: '₱1.2M'. */
export function formatCompactAmount(value: number | string): string {
  return compactPesoFormat().format(Number(value));
}

const regionNames = memoPerLanguage((locale) => {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' });
  } catch {
    return null;
  }
});

/** ISO country codes ('PH') read as names ('Philippines', 'Pilipinas'); anything else is shown as given. */
export function formatCountry(value: string | null | undefined): string {
  if (!value) return i18n.t('common.unknown');
  if (/^[A-Za-z]{2}$/.test(value)) {
    try {
      return regionNames()?.of(value.toUpperCase()) ?? value;
    } catch {
      return value;
    }
  }
  return value;
}

const incidentTypeKeys = {
  scam: 'reports.incidentType.scam',
  hacked: 'reports.incidentType.hacked',
  spam: 'reports.incidentType.spam',
} as const;

/** 'scam' as 'Scam'; an unknown type is shown as stored. */
export function incidentTypeLabel(type: string): string {
  const key = incidentTypeKeys[type as keyof typeof incidentTypeKeys];
  return key ? i18n.t(key) : type;
}

/** docs/behaviour.md §3 names the asset types 'mobile no., email, ewallet, crypto, website'. */
const accountTypeKeys = {
  mobile: 'reports.accountType.mobile',
  email: 'reports.accountType.email',
  ewallet: 'reports.accountType.ewallet',
  crypto: 'reports.accountType.crypto',
  website: 'reports.accountType.website',
  social: 'reports.accountType.social',
} as const;

/** 'ewallet' as 'E-wallet'; an unknown type is shown as stored. */
export function accountTypeLabel(type: string): string {
  const key = accountTypeKeys[type as keyof typeof accountTypeKeys];
  return key ? i18n.t(key) : type;
}
