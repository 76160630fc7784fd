import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { t } from './kit-messages.js';
import { type Column, Field, JsonBlock, Loading, type Page, Pager, Table, type usePager } from './ui.js';

/** What the list screens share: filters applied on submit, a page of rows with its pager, and a row's full record on demand. */

/** What a list row has for the detail button and the table's keys. */
type Identified = { id: string };

type Pagination = ReturnType<typeof usePager>;

/**
 * A row's full record from the API, opened below the table (exact numbers as their text).
 * `shown` names what the button opens when that is not the whole row's record.
 */
export function useDetail() {
  const [open, setOpen] = useState<string | null>(null);
  const column = (what: string, shown?: string) => ({
    label: t('kit.detail'),
    render: (r: Identified) => (
      <button
        type="button"
        class="link"
        aria-expanded={open === r.id}
        onClick={() => setOpen(open === r.id ? null : r.id)}
      >
        {open === r.id ? t('kit.hide') : t('kit.show')}{' '}
        {shown ?? (
          <span class="sr-only">
            {what} {r.id}
          </span>
        )}
      </button>
    ),
  });
  const block = (rows: Identified[]) => {
    const row = rows.find((r) => r.id === open);
    return row === undefined ? null : <JsonBlock value={row} />;
  };
  return { column, block };
}

export function useFilters<T extends Record<string, string>>(initial: T) {
  const [draft, setDraft] = useState(initial);
  const [applied, setApplied] = useState(initial);
  return {
    draft,
    applied,
    set: (k: keyof T, v: string) => setDraft({ ...draft, [k]: v }),
    apply: () => setApplied(draft),
  };
}

/** The filter form: a search starts again from the first page with the filters as typed. */
export function FilterForm({
  filters,
  pager,
  children,
}: {
  filters: { apply: () => void };
  pager: Pagination;
  children: ComponentChildren;
}) {
  return (
    <form
      class="filters"
      onSubmit={(e) => {
        e.preventDefault();
        pager.reset();
        filters.apply();
      }}
    >
      {children}
      <button type="submit">{t('kit.search')}</button>
    </form>
  );
}

/** One filter typed in a field (text, or a date). */
export function FilterInput<K extends string>({
  filters,
  name,
  label,
  date = false,
}: {
  filters: { draft: Record<K, string>; set: (k: K, v: string) => void };
  name: K;
  label: string;
  date?: boolean;
}) {
  const onInput = (e: { currentTarget: HTMLInputElement }) => filters.set(name, e.currentTarget.value);
  return (
    <Field label={label}>
      {date ? (
        <input type="date" value={filters.draft[name]} onInput={onInput} />
      ) : (
        <input value={filters.draft[name]} onInput={onInput} />
      )}
    </Field>
  );
}

/** A page of rows: "loading" until it is there, then the table, the record opened below it, and the pager. */
export function PagedTable<T extends Identified>({
  page,
  what,
  pager,
  caption,
  columns,
  empty,
  detail,
}: {
  page: Page<T> | undefined;
  what: string;
  pager: Pagination;
  caption: string;
  columns: Column<T>[];
  empty: string;
  detail?: ReturnType<typeof useDetail>;
}) {
  if (page === undefined) return <Loading what={what} />;
  return (
    <>
      <Table caption={caption} rows={page.items} rowKey={(r) => r.id} columns={columns} empty={empty} />
      {detail?.block(page.items)}
      <Pager pager={pager} nextCursor={page.nextCursor} />
    </>
  );
}
