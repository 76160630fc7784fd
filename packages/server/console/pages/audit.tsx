import { admin, qs } from '../api.js';
import { t } from '../messages.js';
import type { AuditEntry, Page } from '../views.js';
import { type Column, ErrorNote, link, Loading, Table, time, useAsync, usePager } from '../../ui-kit/ui.js';
import { FilterForm, FilterInput, PagedTable, useDetail, useFilters } from '../../ui-kit/list-kit.js';

/** The audit log (who did what, before and after): searchable, and the trail of one object. */

/** When, who and what: the first columns of every table of audit entries. */
export const AUDIT_ACTION: Column<AuditEntry>[] = [
  { label: t('audit.when'), render: (r) => time(r.at) },
  { label: t('audit.operator'), render: (r) => r.operator },
  { label: t('audit.action'), render: (r) => r.action },
];

/** The object as the entry left it. */
export const AUDIT_AFTER: Column<AuditEntry> = {
  label: t('audit.after'),
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
      <h1 id="audit-h">{t('audit.title')}</h1>
      <FilterForm filters={f} pager={pager}>
        <FilterInput filters={f} name="objectType" label={t('audit.objectType')} />
        <FilterInput filters={f} name="objectId" label={t('audit.objectId')} />
        <FilterInput filters={f} name="operator" label={t('audit.operator')} />
        <FilterInput filters={f} name="action" label={t('audit.action')} />
        <FilterInput filters={f} name="since" label={t('audit.since')} date />
      </FilterForm>
      <ErrorNote error={list.error} />
      <PagedTable
        page={list.data}
        what={t('audit.what')}
        pager={pager}
        caption={t('audit.caption')}
        columns={[
          ...AUDIT_ACTION,
          {
            label: t('audit.object'),
            render: (r) =>
              r.objectType === 'checkout' ? (
                <a href={link(`/checkouts/${r.objectId}`)}>{r.objectId}</a>
              ) : (
                t('audit.objectOther', { type: r.objectType, id: r.objectId })
              ),
          },
          detail.column(t('audit.detailWhat'), t('audit.detailShown')),
        ]}
        empty={t('audit.empty')}
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
      <h2>{t('audit.trail')}</h2>
      <ErrorNote error={entries.error} />
      {entries.data === undefined ? (
        <Loading what={t('audit.what')} />
      ) : (
        <Table
          caption={t('audit.trailCaption', { id: objectId })}
          rows={entries.data.items}
          rowKey={(r) => r.id}
          columns={[...AUDIT_ACTION, AUDIT_AFTER]}
          empty={t('audit.trailEmpty')}
        />
      )}
    </>
  );
}
