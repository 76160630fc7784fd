import { FilterForm, FilterInput, PagedTable, useDetail, useFilters } from '../../ui-kit/list-kit.js';
import { ActionStatus, ErrorNote, time, useAction, useAsync, usePager } from '../../ui-kit/ui.js';
import { can, cpPage, cpWrite, type Session } from '../api.js';
import { t } from '../messages.js';
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
      <h1>{t('events.title')}</h1>
      <FilterForm filters={filters} pager={pager}>
        <FilterInput filters={filters} name="type" label={t('events.types')} />
      </FilterForm>
      <ErrorNote error={page.error} />
      <ActionStatus action={action} />
      <PagedTable
        page={page.data}
        what={t('events.what')}
        pager={pager}
        caption={t('events.caption')}
        empty={t('events.empty')}
        detail={detail}
        columns={[
          { label: t('events.type'), render: (e) => <code>{e.type}</code> },
          { label: t('events.object'), render: (e) => <code>{e.data.object.id ?? '—'}</code> },
          { label: t('events.at'), render: (e) => time(e.createdAt) },
          detail.column(t('events.event')),
          ...(can(session, 'webhooks:write')
            ? [
                {
                  label: t('events.resend'),
                  render: (e: Event) => (
                    <button
                      type="button"
                      onClick={() =>
                        void action.run(t('events.sentAgain'), () => cpWrite('POST', `/events/${e.id}/redeliver`))
                      }
                    >
                      {t('events.resend')} <span class="sr-only">{e.id}</span>
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
