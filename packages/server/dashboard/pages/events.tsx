import { FilterForm, FilterInput, PagedTable, useDetail, useFilters } from '../../ui-kit/list-kit.js';
import { ActionStatus, ErrorNote, time, useAction, useAsync, usePager } from '../../ui-kit/ui.js';
import { can, cpPage, cpWrite, type Session } from '../api.js';
import type { Event } from '../views.js';

/** The merchant's events, newest first, as webhooks carry them; resend one to every endpoint. */
export function Events({ session }: { session: Session }) {
  const pager = usePager();
  const filters = useFilters({ type: '' });
  const page = useAsync(
    () => cpPage<Event>('/events', { type: filters.applied.type, cursor: pager.cursor }),
    [filters.applied, pager.cursor],
  );
  const detail = useDetail();
  const action = useAction();
  return (
    <>
      <h1>Events</h1>
      <FilterForm filters={filters} pager={pager}>
        <FilterInput filters={filters} name="type" label="Types (comma-separated)" />
      </FilterForm>
      <ErrorNote error={page.error} />
      <ActionStatus action={action} />
      <PagedTable
        page={page.data}
        what="events"
        pager={pager}
        caption="Events, newest first"
        empty="No event."
        detail={detail}
        columns={[
          { label: 'Type', render: (e) => <code>{e.type}</code> },
          { label: 'Object', render: (e) => <code>{e.data.object.id ?? '—'}</code> },
          { label: 'At', render: (e) => time(e.createdAt) },
          detail.column('event'),
          ...(can(session, 'webhooks:write')
            ? [
                {
                  label: 'Resend',
                  render: (e: Event) => (
                    <button
                      type="button"
                      onClick={() =>
                        void action.run('Event sent again.', () => cpWrite('POST', `/events/${e.id}/redeliver`))
                      }
                    >
                      Resend <span class="sr-only">{e.id}</span>
                    </button>
                  ),
                },
              ]
            : []),
        ]}
      />
    </>
  );
}
