import { useState } from 'preact/hooks';
import type { Row } from '../api.js';
import { JsonBlock } from '../ui.js';

/** What the list screens share: filters applied on submit, and a row's full record on demand. */
/** A row's full record from the API, opened below the table (exact numbers as their text). */
export function useDetail() {
  const [open, setOpen] = useState<string | null>(null);
  const column = (what: string) => ({
    label: 'Detail',
    render: (r: Row) => (
      <button type="button" class="link" aria-expanded={open === r.id} onClick={() => setOpen(open === r.id ? null : r.id)}>
        {open === r.id ? 'Hide' : 'Show'} <span class="sr-only">{what} {r.id}</span>
      </button>
    ),
  });
  const block = (rows: Row[]) => {
    const row = rows.find((r) => r.id === open);
    return row === undefined ? null : <JsonBlock value={row} />;
  };
  return { column, block };
}

export function useFilters<T extends Record<string, string>>(initial: T) {
  const [draft, setDraft] = useState(initial);
  const [applied, setApplied] = useState(initial);
  return { draft, applied, set: (k: keyof T, v: string) => setDraft({ ...draft, [k]: v }), apply: () => setApplied(draft) };
}

