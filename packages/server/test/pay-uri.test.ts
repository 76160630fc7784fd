import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baseUnits, ceilDecimal, paymentUri } from '../src/features/pay/payment-uri.js';

describe('payment URIs (what the QR code holds)', () => {
  const base = { networkType: 'mainnet', tokenContract: null, address: '', decimals: 8, amount: '0' };

  it('BIP-21 for Bitcoin, with the amount in BTC', () => {
    expect(
      paymentUri({
        ...base,
        family: 'btc',
        chain: 'BTC',
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
        amount: '0.00123400',
      }),
    ).toBe('bitcoin:bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu?amount=0.001234');
  });

  it('EIP-681 for EVM: native value in wei, ERC-20 transfer in base units, chain id where known', () => {
    const eth = { ...base, family: 'evm', chain: 'ETH', address: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94' };
    expect(paymentUri({ ...eth, decimals: 18, amount: '0.012345678901234567' })).toBe(
      'ethereum:0x9858EfFD232B4033E47d90003D41EC34EcaEda94@1?value=12345678901234567',
    );
    expect(
      paymentUri({
        ...eth,
        decimals: 6,
        amount: '27.6471',
        tokenContract: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
      }),
    ).toBe(
      'ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=0x9858EfFD232B4033E47d90003D41EC34EcaEda94&uint256=27647100',
    );
    // A testnet, or an EVM chain the catalog gives no id for: no chain id rather than a wrong one.
    expect(paymentUri({ ...eth, networkType: 'testnet', decimals: 18, amount: '1' })).toBe(
      'ethereum:0x9858EfFD232B4033E47d90003D41EC34EcaEda94?value=1000000000000000000',
    );
  });

  it('the plain address for TRON', () => {
    expect(
      paymentUri({
        ...base,
        family: 'tron',
        chain: 'TRON',
        address: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
        decimals: 6,
        amount: '5',
      }),
    ).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
  });

  it('base units are exact, and round up a fraction finer than the asset', () => {
    expect(baseUnits('0', 6)).toBe('0');
    expect(baseUnits('1', 0)).toBe('1');
    expect(baseUnits('123456789012.123456789012345678', 18)).toBe('123456789012123456789012345678');
    expect(baseUnits('0.0000001', 6)).toBe('1');
    expect(baseUnits('2.5000000', 6)).toBe('2500000');
    expect(ceilDecimal('0.123456789', 8)).toBe('0.12345679');
    expect(ceilDecimal('10.50', 8)).toBe('10.5');
    expect(() => baseUnits('1e5', 6)).toThrow(RangeError);
  });

  it('property: base units ÷ 10^decimals gives back any amount with at most that many decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.integer({ min: 0, max: 24 }), (units, decimals) => {
        const digits = units.toString().padStart(decimals + 1, '0');
        const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
        expect(baseUnits(text, decimals)).toBe(units.toString());
      }),
    );
  });
});
