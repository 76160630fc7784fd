import { PagedTable, useDetail } from '../../ui-kit/list-kit.js';
import { ErrorNote, time, useAsync, usePager } from '../../ui-kit/ui.js';
import { callPage } from '../../ui-kit/api.js';
import { qs } from '../api.js';
import { t } from '../messages.js';

interface Entry {
  id: string;
  at: string;
  userEmail: string | null;
  action: string;
  ip: string | null;
  details: unknown;
}

/** Every security-relevant action of the merchant's users: sign-ins, failures, role changes, keys. */
export function SecurityLog() {
  const pager = usePager();
  const page = useAsync(async () => {
    const answer = await callPage<Entry>(`/dashboard/api/security-log${qs({ limit: '50', cursor: pager.cursor })}`);
    // Either shape: the entries as `result` (cursor in the envelope), or `{items, nextCursor}` as `result`.
    const inner = answer.items as unknown as { items?: Entry[]; nextCursor?: string | null };
    return Array.isArray(answer.items) ? answer : { items: inner.items ?? [], nextCursor: inner.nextCursor ?? null };
  }, [pager.cursor]);
  const detail = useDetail();
  return (
    <>
      <h1>{t('security.title')}</h1>
      <ErrorNote error={page.error} />
      <PagedTable
        page={page.data}
        what={t('security.what')}
        pager={pager}
        caption={t('security.caption')}
        empty={t('security.empty')}
        detail={detail}
        columns={[
          { label: t('security.at'), render: (e) => time(e.at) },
          { label: t('security.user'), render: (e) => e.userEmail ?? '—' },
          { label: t('security.action'), render: (e) => <code>{e.action}</code> },
          { label: t('security.address'), render: (e) => e.ip ?? '—' },
          detail.column(t('security.detailWhat')),
        ]}
      />
    </>
  );
}
