import { useState } from 'preact/hooks';
import { admin, qs } from '../api.js';
import type { MailDetail, MailItem, Page } from '../views.js';
import { ErrorNote, Loading, time, useAsync, usePager } from '../../ui-kit/ui.js';
import { FilterForm, FilterInput, PagedTable, useFilters } from '../../ui-kit/list-kit.js';

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
      <h1 id="mail-h">Mail</h1>
      <p>
        Without <code>HOSTPAY_SMTP_URL</code> every mail is kept, not sent, and shown here with its links.
      </p>
      <FilterForm filters={f} pager={pager}>
        <FilterInput filters={f} name="to" label="To" />
        <FilterInput filters={f} name="status" label="Status" />
        <FilterInput filters={f} name="merchantId" label="Merchant id" />
      </FilterForm>
      <ErrorNote error={list.error} />
      <PagedTable
        page={list.data}
        what="mails"
        pager={pager}
        caption="Mails, newest first"
        columns={[
          { label: 'When', render: (r) => time(r.createdAt) },
          { label: 'To', render: (r) => r.to },
          { label: 'Kind', render: (r) => r.kind },
          { label: 'Status', render: (r) => (r.lastError === null ? r.status : `${r.status}: ${r.lastError}`) },
          { label: 'Subject', render: (r) => r.subject ?? '' },
          {
            label: 'Text',
            render: (r) => (
              <button
                type="button"
                class="link"
                aria-expanded={open === r.id}
                onClick={() => setOpen(open === r.id ? null : r.id)}
              >
                {open === r.id ? 'Hide' : 'Read'} <span class="sr-only">mail {r.id}</span>
              </button>
            ),
          },
        ]}
        empty="No mail yet."
      />
      {open === null ? null : <MailText id={open} />}
    </section>
  );
}

function MailText({ id }: { id: string }) {
  const mail = useAsync(() => admin<MailDetail>(`/mail/${encodeURIComponent(id)}`), [id]);
  if (mail.error !== undefined) return <ErrorNote error={mail.error} />;
  if (mail.data === undefined) return <Loading what="the mail" />;
  return (
    <article aria-label={`Mail ${id}`}>
      <h2>{mail.data.subject ?? '(no subject yet)'}</h2>
      {mail.data.text === null ? (
        <p>The body was deleted (a link's mail, 7 days after sending).</p>
      ) : (
        <pre class="mail-text">{mail.data.text}</pre>
      )}
    </article>
  );
}
