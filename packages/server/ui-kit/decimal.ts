/**
 * a − b of two decimal texts, exactly (BigInt at the finer of the two scales): the fronts show
 * what is available (balance − frozen) without a decimal library in the bundle or a float.
 */
export function minusDecimal(a: string, b: string): string {
  const scale = Math.max(fractionOf(a).length, fractionOf(b).length);
  const diff = scaled(a, scale) - scaled(b, scale);
  const negative = diff < 0n;
  const digits = (negative ? -diff : diff).toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

const fractionOf = (t: string) => t.split('.')[1] ?? '';

function scaled(t: string, scale: number): bigint {
  const negative = t.startsWith('-');
  const [int = '0', frac = ''] = (negative ? t.slice(1) : t).split('.');
  const v = BigInt(int + frac.padEnd(scale, '0'));
  return negative ? -v : v;
}
