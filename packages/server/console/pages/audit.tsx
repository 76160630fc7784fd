import { admin, qs } from '../api.js';
import type { AuditEntry, Page } from '../views.js';
import { type Column, ErrorNote, link, Loading, Table, time, useAsync, usePager } from '../../ui-kit/ui.js';
import { FilterForm, FilterInput, PagedTable, useDetail, useFilters } from '../../ui-kit/list-kit.js';

/** The audit log (who did what, before and after): searchable, and the trail of one object. */

/** When, who and what: the first columns of every table of audit entries. */
export const AUDIT_ACTION: Column<AuditEntry>[] = [
  { label: 'When', render: (r) => time(r.at) },
  { label: 'Operator', render: (r) => r.operator },
  { label: 'Action', render: (r) => r.action },
];

/** The object as the entry left it. */
export const AUDIT_AFTER: Column<AuditEntry> = {
  label: 'After',
  render: (r) => <code class="clip">{JSON.stringify(r.after)}</code>,
};

export function AuditList() {
  const f = useFilters({ objectType: '', objectId: '', operator: '', action: '', since: '' });
  const pager = usePager();
  const detail = useDetail();
  const list = useAsync(
    () =>
      admin<Page<AuditEntry>>(
        `/audit${qs({ ...f.applied, since: f.applied.since && `${f.applied.since}T00:00:00Z`, cursor: pager.cursor })}`,
      ),
    [f.applied, pager.cursor],
  );
  return (
    <section aria-labelledby="audit-h">
      <h1 id="audit-h">Audit log</h1>
      <FilterForm filters={f} pager={pager}>
        <FilterInput filters={f} name="objectType" label="Object type" />
        <FilterInput filters={f} name="objectId" label="Object id" />
        <FilterInput filters={f} name="operator" label="Operator" />
        <FilterInput filters={f} name="action" label="Action" />
        <FilterInput filters={f} name="since" label="Since" date />
      </FilterForm>
      <ErrorNote error={list.error} />
      <PagedTable
        page={list.data}
        what="audit entries"
        pager={pager}
        caption="Audit entries"
        columns={[
          ...AUDIT_ACTION,
          {
            label: 'Object',
            render: (r) =>
              r.objectType === 'checkout' ? (
                <a href={link(`/checkouts/${r.objectId}`)}>{r.objectId}</a>
              ) : (
                `${r.objectType} ${r.objectId}`
              ),
          },
          detail.column('audit entry', 'before / after'),
        ]}
        empty="No entries match."
        detail={detail}
      />
    </section>
  );
}

/** The audit entries of one object (who did what, before and after). */
export function AuditTrail({ objectId }: { objectId: string }) {
  const entries = useAsync(() => admin<Page<AuditEntry>>(`/audit${qs({ objectId, limit: '50' })}`), [objectId]);
  return (
    <>
      <h2>Audit trail</h2>
      <ErrorNote error={entries.error} />
      {entries.data === undefined ? (
        <Loading what="audit entries" />
      ) : (
        <Table
          caption={`Audit trail of ${objectId}`}
          rows={entries.data.items}
          rowKey={(r) => r.id}
          columns={[...AUDIT_ACTION, AUDIT_AFTER]}
          empty="No operator action on it yet."
        />
      )}
    </>
  );
}
