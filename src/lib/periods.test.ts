import { describe, expect, it } from 'vitest';
import { fillPeriods, periodStart, periodsBetween } from './periods';

describe('periods', () => {
  it('starts months on the 1st and ISO weeks on Monday (UTC)', () => {
    expect(periodStart(new Date('2026-03-31T23:59:00Z'), 'month')).toBe('2026-03-01');
    // 2026-11-22 is a Sunday: its week began on Monday 2026-11-16.
    expect(periodStart(new Date('2026-11-22T10:00:00Z'), 'week')).toBe('2026-11-16');
    expect(periodStart(new Date('2026-11-16T00:00:00Z'), 'week')).toBe('2026-11-16');
  });

  it('lists every month across a year boundary', () => {
    expect(periodsBetween(new Date('2025-11-15Z'), new Date('2026-02-02Z'), 'month')).toEqual([
      '2025-11-01',
      '2025-12-01',
      '2026-01-01',
      '2026-02-01',
    ]);
    expect(periodsBetween(new Date('2026-02-01Z'), new Date('2026-01-01Z'), 'month')).toEqual([]);
  });

  it('fills the gaps the dashboard chart used to skip with zero', () => {
    const rows = [
      { date: '2025-12', count: 3 },
      { date: '2026-02', count: 1 },
      { date: '2026-04', count: 2 },
      { date: '2026-06', count: 5 },
    ];
    const filled = fillPeriods(rows, {
      key: (r) => r.date,
      from: new Date('2025-12-01Z'),
      to: new Date('2026-06-30Z'),
      unit: 'month',
      empty: (p) => ({ date: p.slice(0, 7), count: 0 }),
    });
    expect(filled.map((r) => `${r.date}:${r.count}`)).toEqual([
      '2025-12:3',
      '2026-01:0',
      '2026-02:1',
      '2026-03:0',
      '2026-04:2',
      '2026-05:0',
      '2026-06:5',
    ]);
  });

  it('fills weeks', () => {
    const filled = fillPeriods([{ week: '2026-11-02', n: 4 }], {
      key: (r) => r.week,
      from: new Date('2026-10-28Z'),
      to: new Date('2026-11-12Z'),
      unit: 'week',
      empty: (p) => ({ week: p, n: 0 }),
    });
    expect(filled).toEqual([
      { week: '2026-10-26', n: 0 },
      { week: '2026-11-02', n: 4 },
      { week: '2026-11-09', n: 0 },
    ]);
  });
  it('starts the week of a new year on the Monday of the year before', () => {
    // 2026-01-01 is a Thursday, 2026-01-03 a Saturday.
    expect(periodStart(new Date('2026-01-01T12:00:00Z'), 'week')).toBe('2025-12-29');
    expect(periodStart(new Date('2026-01-03T23:59:59Z'), 'week')).toBe('2025-12-29');
    expect(periodStart(new Date('2026-01-04T23:59:59Z'), 'month')).toBe('2026-01-01');
    expect(periodsBetween(new Date('2025-12-31Z'), new Date('2026-01-12Z'), 'week')).toEqual([
      '2025-12-29',
      '2026-01-05',
      '2026-01-12',
    ]);
  });

  it('stops at 1000 periods', () => {
    const months = periodsBetween(new Date('1900-01-15Z'), new Date('2100-01-01Z'), 'month');
    expect(months).toHaveLength(1000);
    // Month 999 after January 1900: 83 years and 3 months later.
    expect(months[999]).toBe('1983-04-01');
  });
});
