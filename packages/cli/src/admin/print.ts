import { listDocument, moreLine, printResult, type Io } from '../output.js';
import { renderTable, type Column } from '../table.js';
import type { Page } from './backend.js';
import { toJsonOutput } from './exact.js';

/** An operator command's result: exact JSON number literals with `--json`, else the text `human` renders. */
export function printAdmin(io: Io, json: boolean | undefined, value: unknown, human: () => string): void {
  printResult(io, json, toJsonOutput(value), human);
}

export interface TableSpec<T> {
  columns: readonly Column[];
  row: (item: T) => readonly string[];
  /** The line printed instead of an empty table. */
  empty: string;
}

/** A readable table, or the `empty` line. */
export function table<T>(items: readonly T[], spec: TableSpec<T>): string {
  return items.length === 0 ? spec.empty : renderTable(spec.columns, items.map(spec.row));
}

/**
 * One page of a list. `--json`: `{items, nextCursor}` as one document. Text: the table, then the
 * option that fetches the next page when there is one.
 */
export function printPage<T>(io: Io, json: boolean | undefined, page: Page<T>, spec: TableSpec<T>): void {
  printAdmin(
    io,
    json,
    listDocument(page.items, page.nextCursor),
    () => table(page.items, spec) + moreLine(page.nextCursor),
  );
}

/** A list the API returns whole (fees, rates, settlement currencies, grants, networks): the same shape, no next page. */
export function printList<T>(io: Io, json: boolean | undefined, items: readonly T[], spec: TableSpec<T>): void {
  printAdmin(io, json, listDocument(items), () => table(items, spec));
}

export const orDash = (value: string | null | undefined): string =>
  value === null || value === undefined || value === '' ? '-' : value;
export const yesNo = (value: boolean): string => (value ? 'yes' : 'no');
