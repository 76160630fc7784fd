import { useState } from 'preact/hooks';
import { admin, qs } from '../api.js';
import type { MailDetail, MailItem, Page } from '../views.js';
import { ErrorNote, Loading, time, useAsync, usePager } from '../../ui-kit/ui.js';
import { FilterForm, FilterInput, PagedTable, useFilters } from '../../ui-kit/list-kit.js';
import { t } from '../messages.js';

/** The setting that sends mail (a name, not words). */
const SMTP_URL_VARIABLE = 'HOSTPAY_SMTP_URL';

/**
 * The mail outbox: every mail sent, kept (no transport: the demo's mail is read here), owed,
 * failed, bounced or limited; one mail's text on demand (docs/mail.md).
 */
export function MailList() {
  const f = useFilters({ to: '', status: '', merchantId: '' });
  const pager = usePager();
  const [open, setOpen] = useState<string | null>(null);
  const list = useAsync(
    () => admin<Page<MailItem>>(`/mail${qs({ ...f.applied, cursor: pager.cursor })}`),
    [f.applied, pager.cursor],
  );
  return (
    <section aria-labelledby="mail-h">
      <h1 id="mail-h">{t('mail.title')}</h1>
      <p>
        {t('mail.introBefore')}
        <code>{SMTP_URL_VARIABLE}</code>
        {t('mail.introAfter')}
      </p>
      <FilterForm filters={f} pager={pager}>
        <FilterInput filters={f} name="to" label={t('mail.to')} />
        <FilterInput filters={f} name="status" label={t('mail.status')} />
        <FilterInput filters={f} name="merchantId" label={t('mail.merchantId')} />
      </FilterForm>
      <ErrorNote error={list.error} />
      <PagedTable
        page={list.data}
        what={t('mail.what')}
        pager={pager}
        caption={t('mail.caption')}
        columns={[
          { label: t('mail.when'), render: (r) => time(r.createdAt) },
          { label: t('mail.to'), render: (r) => r.to },
          { label: t('mail.kind'), render: (r) => r.kind },
          { label: t('mail.status'), render: (r) => (r.lastError === null ? r.status : `${r.status}: ${r.lastError}`) },
          { label: t('mail.subject'), render: (r) => r.subject ?? '' },
          {
            label: t('mail.text'),
            render: (r) => (
              <button
                type="button"
                class="link"
                aria-expanded={open === r.id}
                onClick={() => setOpen(open === r.id ? null : r.id)}
              >
                {open === r.id ? t('mail.hide') : t('mail.read')}{' '}
                <span class="sr-only">{t('mail.srMail', { id: r.id })}</span>
              </button>
            ),
          },
        ]}
        empty={t('mail.noneYet')}
      />
      {open === null ? null : <MailText id={open} />}
    </section>
  );
}

function MailText({ id }: { id: string }) {
  const mail = useAsync(() => admin<MailDetail>(`/mail/${encodeURIComponent(id)}`), [id]);
  if (mail.error !== undefined) return <ErrorNote error={mail.error} />;
  if (mail.data === undefined) return <Loading what={t('mail.theMail')} />;
  return (
    <article aria-label={t('mail.articleLabel', { id })}>
      <h2>{mail.data.subject ?? t('mail.noSubject')}</h2>
      {mail.data.text === null ? <p>{t('mail.bodyDeleted')}</p> : <pre class="mail-text">{mail.data.text}</pre>}
    </article>
  );
}
