/** How a column lines up: text to the left, decimals on their decimal point. */
export type ColumnAlign = 'left' | 'decimal';

export interface Column {
  header: string;
  align?: ColumnAlign;
}

/**
 * A plain-text table: a header row, columns two spaces apart, no trailing spaces. Decimal
 * columns line up on the decimal point and are padded with spaces only, so every cell, trimmed,
 * is the exact decimal text it was given (never rounded, never zero-padded).
 */
export function renderTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const cells = columns.map((col, c) => {
    const values = rows.map((row) => row[c] ?? '');
    return col.align === 'decimal' ? alignDecimals(values) : values;
  });
  const widths = columns.map((col, c) => Math.max(col.header.length, ...(cells[c] ?? []).map((v) => v.length)));
  const line = (values: readonly string[]) =>
    values
      .map((v, c) => v.padEnd(widths[c] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(columns.map((col) => col.header)), ...rows.map((_, r) => line(cells.map((col) => col[r] ?? '')))].join(
    '\n',
  );
}

function alignDecimals(values: readonly string[]): string[] {
  const parts = values.map((v) => {
    const dot = v.indexOf('.');
    return dot === -1 ? { whole: v, fraction: '' } : { whole: v.slice(0, dot), fraction: v.slice(dot) };
  });
  const wholeWidth = Math.max(0, ...parts.map((p) => p.whole.length));
  const fractionWidth = Math.max(0, ...parts.map((p) => p.fraction.length));
  return parts.map((p) => p.whole.padStart(wholeWidth) + p.fraction.padEnd(fractionWidth));
}

/** Label / value lines with the values lined up: `fee           2.5 USDT`. */
export function renderPairs(pairs: readonly (readonly [label: string, value: string])[]): string {
  const width = Math.max(0, ...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${label.padEnd(width)}  ${value}`.trimEnd()).join('\n');
}
