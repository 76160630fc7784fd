import { describe, expect, it } from 'vitest';
import { formatAmount, formatDate, formatDateTime, formatTime, isoCurrency } from '../../src/i18n/format.js';

describe('money and dates in the payer language', () => {
  it('writes fiat exactly in each language, with every digit asked for', () => {
    expect(formatAmount('en', '25.50', 'EUR')).toBe('€25.50');
    expect(formatAmount('de', '25.50', 'EUR')).toBe('25,50\u00a0€');
    expect(formatAmount('en', '1234567.123456789', 'USD')).toBe('$1,234,567.123456789');
    expect(formatAmount('ja', '1000', 'JPY')).toBe('￥1,000');
    expect(formatAmount('ar', '5', 'USD')).toMatch(/US\$|\$/);
  });

  it('never formats a crypto amount', () => {
    expect(formatAmount('de', '0.000123456789012345', 'BTC')).toBe('0.000123456789012345 BTC');
    expect(formatAmount('fr', '1.5', 'EUR', false)).toBe('1.5 EUR');
    expect(isoCurrency('USDT')).toBe(false);
    expect(isoCurrency('usd')).toBe(false);
  });

  it('writes dates in UTC in the language', () => {
    const iso = '2026-11-29T23:30:00.000Z';
    expect(formatDate('en', iso)).toBe('November 29, 2026');
    expect(formatDate('fr', iso)).toBe('29 novembre 2026');
    expect(formatDate('ja', iso)).toBe('2026年11月29日');
    expect(formatTime('en', iso)).toBe('11:30 PM');
    expect(formatTime('de', iso)).toBe('23:30');
    expect(formatDateTime('es', iso)).toContain('29 de noviembre de 2026');
  });
});
