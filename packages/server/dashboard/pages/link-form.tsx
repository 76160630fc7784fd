import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ActionForm } from '../../ui-kit/action-form.js';
import { Field, useAction } from '../../ui-kit/ui.js';
import { can, cpWrite, type Session } from '../api.js';
import {
  type CollectEmail,
  emptyLinkForm,
  type LinkForm,
  type LinkLine,
  linkCreateBody,
  type Pricing,
} from '../commerce-forms.js';
import { navigate } from '../router.js';
import type { PaymentLink } from '../views.js';

/** A new payment link: its price (fixed, line items, or typed by the payer), then where the payer goes. */

const PRICING: [Pricing, string][] = [
  ['fixed', 'A fixed price'],
  ['items', 'Line items (the price is their sum)'],
  ['open', 'The payer types the amount'],
];
const MAX_LINES = 20;

export function NewLink({ session }: { session: Session }) {
  const [form, setForm] = useState<LinkForm>(emptyLinkForm);
  const action = useAction();
  const set =
    (k: keyof LinkForm) => (e: { currentTarget: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement }) =>
      setForm({ ...form, [k]: e.currentTarget.value });
  if (!can(session, 'links:write'))
    return (
      <>
        <h1>New payment link</h1>
        <p>Your role ({session.role}) cannot create payment links.</p>
      </>
    );
  return (
    <>
      <h1>New payment link</h1>
      <p class="muted">
        One address to share (a page at /l/…): each payer who opens it and presses Pay gets a fresh checkout.
      </p>
      <ActionForm
        action={action}
        submit="Create payment link"
        onSubmit={() =>
          action.run('Payment link created.', async () => {
            const made = await cpWrite<PaymentLink>('POST', '/payment-links', linkCreateBody(form));
            navigate(`/links/${encodeURIComponent(made.id)}`);
          })
        }
      >
        <div class="grid">
          <Field label="Name" hint="the page's title">
            <input required maxLength={200} value={form.name} onInput={set('name')} />
          </Field>
          <Field label="Currency" hint="e.g. EUR, USD, USDT">
            <input required maxLength={12} value={form.currency} onInput={set('currency')} />
          </Field>
        </div>
        <Field label="Description (optional, shown to the payer)">
          <input maxLength={500} value={form.description} onInput={set('description')} />
        </Field>
        <fieldset class="choice">
          <legend>Price</legend>
          {PRICING.map(([value, label]) => (
            <label class="check" key={value}>
              <input
                type="radio"
                name="pricing"
                value={value}
                checked={form.pricing === value}
                onChange={() => setForm({ ...form, pricing: value })}
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
        <Price form={form} setForm={setForm} />
        <div class="grid">
          <Field label="Payer's email">
            <select value={form.collectEmail} onChange={set('collectEmail')}>
              {(['none', 'optional', 'required'] as CollectEmail[]).map((v) => (
                <option value={v} key={v}>
                  {v === 'none' ? 'not asked' : v}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Max uses (optional)" hint="paid checkouts at most; empty: unlimited">
            <input inputMode="numeric" value={form.maxUses} onInput={set('maxUses')} />
          </Field>
          <Field label="Expires (optional, UTC)">
            <input type="datetime-local" value={form.expiresAt} onInput={set('expiresAt')} />
          </Field>
        </div>
        <Field label="Success URL (optional)" hint="https; may hold {CHECKOUT_ID}; empty: your default">
          <input type="url" maxLength={2048} value={form.successUrl} onInput={set('successUrl')} />
        </Field>
        <Field label="Cancel URL (optional)" hint="https; empty: back to the link's page">
          <input type="url" maxLength={2048} value={form.cancelUrl} onInput={set('cancelUrl')} />
        </Field>
      </ActionForm>
    </>
  );
}

function Price({ form, setForm }: { form: LinkForm; setForm: (f: LinkForm) => void }) {
  const set = (k: 'amount' | 'minAmount' | 'maxAmount') => (e: { currentTarget: HTMLInputElement }) =>
    setForm({ ...form, [k]: e.currentTarget.value });
  if (form.pricing === 'fixed')
    return (
      <Field label="Amount">
        <input required inputMode="decimal" value={form.amount} onInput={set('amount')} />
      </Field>
    );
  if (form.pricing === 'open')
    return (
      <div class="grid">
        <Field label="Lowest amount (optional)">
          <input inputMode="decimal" value={form.minAmount} onInput={set('minAmount')} />
        </Field>
        <Field label="Highest amount (optional)">
          <input inputMode="decimal" value={form.maxAmount} onInput={set('maxAmount')} />
        </Field>
      </div>
    );
  const lines = form.lines;
  const setLine = (i: number, k: keyof LinkLine) => (e: { currentTarget: HTMLInputElement }) =>
    setForm({ ...form, lines: lines.map((l, j) => (j === i ? { ...l, [k]: e.currentTarget.value } : l)) });
  return (
    <>
      {lines.map((l, i) => (
        <fieldset class="line" key={i}>
          <legend>Line {i + 1}</legend>
          <LineField label="Item" n={i}>
            <input required maxLength={200} value={l.name} onInput={setLine(i, 'name')} />
          </LineField>
          <LineField label="Quantity" n={i}>
            <input required inputMode="numeric" value={l.quantity} onInput={setLine(i, 'quantity')} />
          </LineField>
          <LineField label="Unit price" n={i}>
            <input required inputMode="decimal" value={l.unitAmount} onInput={setLine(i, 'unitAmount')} />
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
          onClick={() => setForm({ ...form, lines: [...lines, { name: '', quantity: '1', unitAmount: '' }] })}
        >
          Add a line
        </button>
      ) : null}
    </>
  );
}

/** A field of a numbered line: its accessible name carries the line ("Line 2 unit price"), its label shows the field. */
export function LineField({ label, n, children }: { label: string; n: number; children: ComponentChildren }) {
  return (
    <div class="field">
      {/* biome-ignore lint/a11y/noLabelWithoutControl: the control is `children`, inside the label */}
      <label>
        <span>
          <span class="sr-only">Line {n + 1} </span>
          {label}
        </span>
        {children}
      </label>
    </div>
  );
}
