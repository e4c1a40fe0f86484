import { formatAmount, formatCountry, formatDate } from './format';
import { truncate } from './text';

describe('truncate', () => {
  it('keeps short text and cuts long text at the limit with an ellipsis', () => {
    expect(truncate('Short title', 35)).toBe('Short title');
    expect(truncate('x'.repeat(35), 35)).toBe('x'.repeat(35));
    expect(truncate('x'.repeat(36), 35)).toBe(`${'x'.repeat(35)}...`);
    expect(truncate('Fake GCash texts lead to look-alike pages', 11)).toBe('Fake GCash...');
    expect(truncate(null, 10)).toBe('');
  });
});

describe('formatters', () => {
  it('shows calendar dates without shifting them by time zone', () => {
    expect(formatDate('2026-11-02')).toBe('Nov 2, 2026');
    expect(formatDate(null)).toBe('—');
  });

  it('shows amounts in pesos and country codes as names', () => {
    expect(formatAmount(20000)).toBe('₱20,000.00');
    expect(formatAmount('0')).toBe('₱0.00');
    expect(formatCountry('PH')).toBe('Philippines');
    expect(formatCountry('Japan')).toBe('Japan');
    expect(formatCountry(null)).toBe('Unknown');
  });
});
