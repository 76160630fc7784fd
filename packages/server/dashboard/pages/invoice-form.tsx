import { useState } from 'preact/hooks';
import { ActionForm } from '../../ui-kit/action-form.js';
import { Field, useAction } from '../../ui-kit/ui.js';
import { can, cpWrite, type Session } from '../api.js';
import {
  emptyInvoiceForm,
  emptyInvoiceLine,
  type InvoiceForm,
  type InvoiceLine,
  invoiceBody,
  invoiceFormOf,
} from '../commerce-forms.js';
import { t } from '../messages.js';
import { navigate } from '../router.js';
import type { Invoice } from '../views.js';
import { LineField } from './link-form.js';

/** A draft invoice: made here, changed here until finalized (docs/invoices.md). */

const MAX_LINES = 100;

/** The draft's fields: customer, lines (quantity, unit price, tax rate each), memo, due date. */
function DraftFields({ form, setForm }: { form: InvoiceForm; setForm: (f: InvoiceForm) => void }) {
  const set =
    (k: 'currency' | 'customerName' | 'customerEmail' | 'memo' | 'dueDate') =>
    (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) =>
      setForm({ ...form, [k]: e.currentTarget.value });
  const lines = form.lines;
  const setLine = (i: number, k: keyof InvoiceLine) => (e: { currentTarget: HTMLInputElement }) =>
    setForm({ ...form, lines: lines.map((l, j) => (j === i ? { ...l, [k]: e.currentTarget.value } : l)) });
  return (
    <>
      <div class="grid">
        <Field label={t('invoice-form.customerName')}>
          <input maxLength={200} value={form.customerName} onInput={set('customerName')} />
        </Field>
        <Field label={t('invoice-form.customerEmail')} hint={t('invoice-form.customerEmailHint')}>
          <input type="email" maxLength={254} value={form.customerEmail} onInput={set('customerEmail')} />
        </Field>
        <Field label={t('invoice-form.currency')} hint={t('invoice-form.currencyHint')}>
          <input required maxLength={12} value={form.currency} onInput={set('currency')} />
        </Field>
        <Field label={t('invoice-form.dueDate')} hint={t('invoice-form.dueDateHint')}>
          <input type="date" value={form.dueDate} onInput={set('dueDate')} />
        </Field>
      </div>
      {lines.map((l, i) => (
        <fieldset class="line" key={i}>
          <legend>{t('invoice-form.line', { n: i + 1 })}</legend>
          <LineField label={t('invoice-form.description')} n={i}>
            <input maxLength={500} value={l.description} onInput={setLine(i, 'description')} />
          </LineField>
          <LineField label={t('invoice-form.quantity')} n={i}>
            <input inputMode="decimal" value={l.quantity} onInput={setLine(i, 'quantity')} />
          </LineField>
          <LineField label={t('invoice-form.unitPrice')} n={i}>
            <input inputMode="decimal" value={l.unitAmount} onInput={setLine(i, 'unitAmount')} />
          </LineField>
          <LineField label={t('invoice-form.taxPercent')} n={i}>
            <input inputMode="decimal" value={l.taxPercent} onInput={setLine(i, 'taxPercent')} />
          </LineField>
          {lines.length > 1 ? (
            <button type="button" onClick={() => setForm({ ...form, lines: lines.filter((_, j) => j !== i) })}>
              {t('invoice-form.remove')} <span class="sr-only">{t('invoice-form.removeLine', { n: i + 1 })}</span>
            </button>
          ) : null}
        </fieldset>
      ))}
      {lines.length < MAX_LINES ? (
        <button
          type="button"
          class="add-line"
          onClick={() => setForm({ ...form, lines: [...lines, emptyInvoiceLine()] })}
        >
          {t('invoice-form.addLine')}
        </button>
      ) : null}
      <Field label={t('invoice-form.memo')}>
        <textarea maxLength={2000} rows={3} value={form.memo} onInput={set('memo')} />
      </Field>
    </>
  );
}

export function NewInvoice({ session }: { session: Session }) {
  const [form, setForm] = useState<InvoiceForm>(emptyInvoiceForm);
  const action = useAction();
  if (!can(session, 'invoices:write'))
    return (
      <>
        <h1>{t('invoice-form.newInvoice')}</h1>
        <p>{t('invoice-form.cannotCreate', { role: session.role })}</p>
      </>
    );
  return (
    <>
      <h1>{t('invoice-form.newInvoice')}</h1>
      <p class="muted">{t('invoice-form.intro')}</p>
      <ActionForm
        action={action}
        submit={t('invoice-form.save')}
        onSubmit={() =>
          action.run(t('invoice-form.saved'), async () => {
            const made = await cpWrite<Invoice>('POST', '/invoices', invoiceBody(form));
            navigate(`/invoices/${encodeURIComponent(made.id)}`);
          })
        }
      >
        <DraftFields form={form} setForm={setForm} />
      </ActionForm>
    </>
  );
}

/** The draft's form on its page: saving replaces the whole draft (lines included). */
export function EditDraft({ invoice }: { invoice: Invoice }) {
  const [form, setForm] = useState<InvoiceForm>(() => invoiceFormOf(invoice));
  const action = useAction();
  return (
    <ActionForm
      action={action}
      id="edit-draft-h"
      title={t('invoice-form.edit')}
      submit={t('invoice-form.save')}
      primary={false}
      onSubmit={() =>
        action.run(t('invoice-form.saved'), () => cpWrite('PATCH', `/invoices/${invoice.id}`, invoiceBody(form)))
      }
    >
      <DraftFields form={form} setForm={setForm} />
    </ActionForm>
  );
}
