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
        <Field label="Customer name">
          <input maxLength={200} value={form.customerName} onInput={set('customerName')} />
        </Field>
        <Field label="Customer email" hint="needed to send it">
          <input type="email" maxLength={254} value={form.customerEmail} onInput={set('customerEmail')} />
        </Field>
        <Field label="Currency" hint="e.g. EUR, USD, USDT">
          <input required maxLength={12} value={form.currency} onInput={set('currency')} />
        </Field>
        <Field label="Due date (optional, UTC)" hint="payable until the end of that day">
          <input type="date" value={form.dueDate} onInput={set('dueDate')} />
        </Field>
      </div>
      {lines.map((l, i) => (
        <fieldset class="line" key={i}>
          <legend>Line {i + 1}</legend>
          <LineField label="Description" n={i}>
            <input maxLength={500} value={l.description} onInput={setLine(i, 'description')} />
          </LineField>
          <LineField label="Quantity" n={i}>
            <input inputMode="decimal" value={l.quantity} onInput={setLine(i, 'quantity')} />
          </LineField>
          <LineField label="Unit price" n={i}>
            <input inputMode="decimal" value={l.unitAmount} onInput={setLine(i, 'unitAmount')} />
          </LineField>
          <LineField label="Tax %" n={i}>
            <input inputMode="decimal" value={l.taxPercent} onInput={setLine(i, 'taxPercent')} />
          </LineField>
          {lines.length > 1 ? (
            <button type="button" onClick={() => setForm({ ...form, lines: lines.filter((_, j) => j !== i) })}>
              Remove <span class="sr-only">line {i + 1}</span>
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
          Add a line
        </button>
      ) : null}
      <Field label="Memo (optional, printed on the invoice)">
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
        <h1>New invoice</h1>
        <p>Your role ({session.role}) cannot create invoices.</p>
      </>
    );
  return (
    <>
      <h1>New invoice</h1>
      <p class="muted">
        A draft first: change it as often as needed, then finalize it to give it its number and its page to pay.
      </p>
      <ActionForm
        action={action}
        submit="Save draft"
        onSubmit={() =>
          action.run('Draft saved.', async () => {
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
      title="Edit the draft"
      submit="Save draft"
      primary={false}
      onSubmit={() => action.run('Draft saved.', () => cpWrite('PATCH', `/invoices/${invoice.id}`, invoiceBody(form)))}
    >
      <DraftFields form={form} setForm={setForm} />
    </ActionForm>
  );
}
