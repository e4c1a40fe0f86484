/** Display helpers shared by every page that shows reports. */

const dateFormat = new Intl.DateTimeFormat('en-PH', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** '2026-11-20' or an ISO timestamp as 'Nov 20, 2026'; dates are calendar days, so shown in UTC. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? value : dateFormat.format(date);
}

/** Amounts are Philippine pesos, the currency victims here lose. */
const pesoFormat = new Intl.NumberFormat('en-PH', {
  style: 'currency',
  currency: 'PHP',
  maximumFractionDigits: 2,
});

export function formatAmount(value: number | string | null | undefined): string {
  return pesoFormat.format(Number(value ?? 0));
}

let regionNames: Intl.DisplayNames | undefined;

/** ISO country codes ('PH') read as names ('Philippines'); anything else is shown as given. */
export function formatCountry(value: string | null | undefined): string {
  if (!value) return 'Unknown';
  if (/^[A-Za-z]{2}$/.test(value)) {
    try {
      regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
      return regionNames.of(value.toUpperCase()) ?? value;
    } catch {
      return value;
    }
  }
  return value;
}

export const incidentTypeLabels: Record<string, string> = { scam: 'Scam', hacked: 'Hacked', spam: 'Spam' };

/** SPEC.md section 3 names the asset types 'mobile no., email, ewallet, crypto, website'. */
export const accountTypeLabels: Record<string, string> = {
  mobile: 'Mobile No.',
  email: 'Email',
  ewallet: 'E-wallet',
  crypto: 'Crypto',
  website: 'Website',
};
