/**
 * The two column types that differ by dialect. Money is exact decimal either way: NUMERIC on
 * PostgreSQL, canonical decimal text on SQLite (which has no exact decimal type). Times are
 * timestamptz on PostgreSQL and ISO 8601 UTC text on SQLite, which sorts as it should.
 */
export interface ColumnTypes {
  money: 'text' | 'numeric';
  time: 'text' | 'timestamptz';
}

export const COLUMN_TYPES: Record<'sqlite' | 'postgres', ColumnTypes> = {
  sqlite: { money: 'text', time: 'text' },
  postgres: { money: 'numeric', time: 'timestamptz' },
};
