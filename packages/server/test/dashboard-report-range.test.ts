import { REPORT_MAX_RANGE_DAYS } from '@hostpay/protocol';
import { describe, expect, it } from 'vitest';
import { isMonth, MAX_RANGE_DAYS, monthOf, monthRange, rangeProblem, rangeQuery } from '../dashboard/report-range.js';

/**
 * The dashboard Reports page's dates: whole UTC days, the last one included, sent to the API as
 * [from, to) with `to` the day after; presets across year ends and leap years; the page's own
 * refusals matching the server's range rule.
 */
const at = (iso: string) => Date.parse(iso);

describe('the Reports page’s date ranges', () => {
  it('this month and last month are whole UTC months, across a year end and a leap February', () => {
    expect(monthRange(at('2026-11-29T00:30:00Z'), 0)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(monthRange(at('2026-11-29T00:30:00Z'), -1)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(monthRange(at('2027-01-15T12:00:00Z'), -1)).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(monthRange(at('2028-03-01T00:00:00Z'), -1)).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthRange(at('2027-03-31T23:59:59Z'), -1)).toEqual({ from: '2027-02-01', to: '2027-02-28' });
    // UTC, not the machine's zone: the last second of a month is still that month.
    expect(monthOf(at('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(monthOf(at('2026-12-01T00:00:00Z'))).toBe('2026-12');
  });

  it('sends the first day’s 00:00 UTC and the next day’s after the last, across month and year ends', () => {
    expect(rangeQuery({ from: '2026-11-01', to: '2026-11-30' })).toEqual({
      from: '2026-11-01T00:00:00Z',
      to: '2026-12-01T00:00:00Z',
    });
    expect(rangeQuery({ from: '2026-12-31', to: '2026-12-31' })).toEqual({
      from: '2026-12-31T00:00:00Z',
      to: '2027-01-01T00:00:00Z',
    });
    expect(rangeQuery({ from: '2028-02-28', to: '2028-02-28' }).to).toBe('2028-02-29T00:00:00Z');
  });

  it('says what the server would refuse: no day, the last before the first, more than 366 days', () => {
    expect(MAX_RANGE_DAYS).toBe(REPORT_MAX_RANGE_DAYS);
    expect(rangeProblem({ from: '', to: '2026-11-30' })).toBe('Choose a first and a last day.');
    expect(rangeProblem({ from: '2026-11-01', to: '30/11/2026' })).toBe('Choose a first and a last day.');
    expect(rangeProblem({ from: '2026-11-02', to: '2026-11-01' })).toBe('The last day is before the first.');
    expect(rangeProblem({ from: '2026-11-01', to: '2026-11-01' })).toBeUndefined();
    // 366 days, a leap year's whole: the longest the server takes.
    expect(rangeProblem({ from: '2028-01-01', to: '2028-12-31' })).toBeUndefined();
    const { from, to } = rangeQuery({ from: '2028-01-01', to: '2028-12-31' });
    expect((Date.parse(to) - Date.parse(from)) / 86_400_000).toBe(REPORT_MAX_RANGE_DAYS);
    expect(rangeProblem({ from: '2027-01-01', to: '2028-01-01' })).toBeUndefined();
    expect(rangeProblem({ from: '2027-01-01', to: '2028-01-02' })).toBe('A report covers at most 366 days.');
  });

  it('a month is YYYY-MM with a real month', () => {
    expect(['2026-11', '2026-01', '2026-12'].map(isMonth)).toEqual([true, true, true]);
    expect(['2026-13', '2026-00', '2026-1', '26-11', '', '2026-11-01'].map(isMonth)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
