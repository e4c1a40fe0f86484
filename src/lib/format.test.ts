import {
  formatAmount,
  formatCompact,
  formatCompactAmount,
  formatCountry,
  formatDate,
  formatDay,
  formatLongMonth,
  formatMonth,
  formatNumber,
} from './format';
import { i18n } from '@/i18n';
import { truncate } from './text';

describe('truncate', () => {
  it('keeps short text and cuts long text at the limit with an ellipsis', () => {
    expect(truncate('Short title', 35)).toBe('Short title');
    expect(truncate('x'.repeat(35), 35)).toBe('x'.repeat(35));
    expect(truncate('x'.repeat(36), 35)).toBe(`${'x'.repeat(35)}...`);
    expect(truncate('Fake GCash texts lead to look-alike pages', 11)).toBe('Fake GCash...');
    expect(truncate(null, 10)).toBe('');
    expect(truncate(undefined, 10)).toBe('');
  });

  it('trims the text first, and the space at the cut so the ellipsis hugs the last word', () => {
    expect(truncate('  Short title  ', 11)).toBe('Short title');
    expect(truncate('Fake GCash texts', 5)).toBe('Fake...');
    expect(truncate('Fake   GCash texts', 6)).toBe('Fake...');
  });
});

describe('formatters', () => {
  it('shows calendar dates without shifting them by time zone', () => {
    expect(formatDate('2026-11-02')).toBe('Nov 2, 2026');
    expect(formatDate(null)).toBe('—');
    expect(formatDate('')).toBe('—');
  });

  it('shows timestamps by their UTC calendar day and leaves what is not a date as given', () => {
    expect(formatDate('2026-11-20T23:30:00Z')).toBe('Nov 20, 2026');
    expect(formatDate('2026-11-20T23:30:00-08:00')).toBe('Nov 21, 2026');
    expect(formatDate('someday')).toBe('someday');
  });

  it('shows amounts in pesos and country codes as names', () => {
    expect(formatAmount(20000)).toBe('₱20,000.00');
    expect(formatAmount('0')).toBe('₱0.00');
    expect(formatCountry('PH')).toBe('Philippines');
    expect(formatCountry('Japan')).toBe('Japan');
    expect(formatCountry(null)).toBe('Unknown');
    expect(formatCountry('')).toBe('Unknown');
  });

  it('reads two-letter codes in any case; longer codes and pesos with centavos as given', () => {
    expect(formatCountry('ph')).toBe('Philippines');
    expect(formatCountry('jp')).toBe('Japan');
    expect(formatCountry('PHL')).toBe('PHL');
    expect(formatCountry('P1')).toBe('P1');
    expect(formatAmount(1234.567)).toBe('₱1,234.57');
    expect(formatAmount(null)).toBe('₱0.00');
    expect(formatAmount(undefined)).toBe('₱0.00');
  });
});

describe('month, day and count formatters (English)', () => {
  it('show months and days by their UTC calendar date', () => {
    expect(formatMonth('2026-11-01')).toBe('Nov 2026');
    expect(formatMonth('2026-11-30T23:30:00Z')).toBe('Nov 2026');
    expect(formatMonth(new Date(Date.UTC(2026, 0, 31, 23)))).toBe('Jan 2026');
    expect(formatLongMonth('2026-11-01')).toBe('November 2026');
    expect(formatLongMonth('2026-12-01T00:00:00Z')).toBe('December 2026');
    expect(formatDay('2026-11-20')).toBe('Nov 20');
    expect(formatDay('2026-11-20T23:59:00Z')).toBe('Nov 20');
    expect(formatDay(new Date(Date.UTC(2026, 10, 2)))).toBe('Nov 2');
  });

  it('group counts and shorten them for chart axes', () => {
    expect(formatNumber(12345)).toBe('12,345');
    expect(formatNumber('1000')).toBe('1,000');
    expect(formatCompact(12_345)).toBe('12.3K');
    expect(formatCompact(999)).toBe('999');
    expect(formatCompactAmount(1_234_567)).toBe('₱1.2M');
    expect(formatCompactAmount('2500')).toBe('₱2.5K');
  });
});

describe('formatters in Filipino (fil-PH)', () => {
  // src/testing/setup.ts puts the language back to English after each test.
  beforeEach(async () => {
    await i18n.changeLanguage('fil');
  });

  it('name months and days in Filipino, by their UTC calendar date', () => {
    expect(formatDate('2026-06-30T23:30:00Z')).toBe('Hun 30, 2026');
    expect(formatMonth('2026-11-01')).toBe('Nob 2026');
    expect(formatLongMonth('2026-02-01')).toBe('Pebrero 2026');
    expect(formatDay('2026-11-20')).toBe('Nob 20');
  });

  it('name countries in Filipino whatever the runtime locale, and keep unknown codes as given', () => {
    expect(formatCountry('PH')).toBe('Pilipinas');
    expect(formatCountry('us')).toBe('Estados Unidos');
    expect(formatCountry('KR')).toBe('Timog Korea');
    expect(formatCountry('XY')).toBe('XY');
    expect(formatCountry(undefined)).toBe('Hindi alam');
  });

  it('switch back to English formats when the reader does', async () => {
    expect(formatCountry('US')).toBe('Estados Unidos');
    expect(formatMonth('2026-11-01')).toBe('Nob 2026');
    await i18n.changeLanguage('en');
    expect(formatCountry('US')).toBe('United States');
    expect(formatMonth('2026-11-01')).toBe('Nov 2026');
  });
});
