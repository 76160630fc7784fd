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
import { t } from '../messages.js';
import type { PaymentLink } from '../views.js';

/** A new payment link: its price (fixed, line items, or typed by the payer), then where the payer goes. */

const PRICING: [Pricing, string][] = [
  ['fixed', t('link-form.pricingFixed')],
  ['items', t('link-form.pricingItems')],
  ['open', t('link-form.pricingOpen')],
];
const MAX_LINES = 20;
/** How a choice of the payer's email reads in the list. */
const emailChoice = (v: CollectEmail) => (v === 'none' ? t('link-form.notAsked') : v);

export function NewLink({ session }: { session: Session }) {
  const [form, setForm] = useState<LinkForm>(emptyLinkForm);
  const action = useAction();
  const set =
    (k: keyof LinkForm) => (e: { currentTarget: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement }) =>
      setForm({ ...form, [k]: e.currentTarget.value });
  if (!can(session, 'links:write'))
    return (
      <>
        <h1>{t('link-form.title')}</h1>
        <p>{t('link-form.roleCannot', { role: session.role })}</p>
      </>
    );
  return (
    <>
      <h1>{t('link-form.title')}</h1>
      <p class="muted">{t('link-form.intro')}</p>
      <ActionForm
        action={action}
        submit={t('link-form.submit')}
        onSubmit={() =>
          action.run(t('link-form.created'), async () => {
            const made = await cpWrite<PaymentLink>('POST', '/payment-links', linkCreateBody(form));
            navigate(`/links/${encodeURIComponent(made.id)}`);
          })
        }
      >
        <div class="grid">
          <Field label={t('link-form.name')} hint={t('link-form.nameHint')}>
            <input required maxLength={200} value={form.name} onInput={set('name')} />
          </Field>
          <Field label={t('link-form.currency')} hint={t('link-form.currencyHint')}>
            <input required maxLength={12} value={form.currency} onInput={set('currency')} />
          </Field>
        </div>
        <Field label={t('link-form.description')}>
          <input maxLength={500} value={form.description} onInput={set('description')} />
        </Field>
        <fieldset class="choice">
          <legend>{t('link-form.price')}</legend>
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
          <Field label={t('link-form.payerEmail')}>
            <select value={form.collectEmail} onChange={set('collectEmail')}>
              {(['none', 'optional', 'required'] as CollectEmail[]).map((v) => (
                <option value={v} key={v}>
                  {emailChoice(v)}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('link-form.maxUses')} hint={t('link-form.maxUsesHint')}>
            <input inputMode="numeric" value={form.maxUses} onInput={set('maxUses')} />
          </Field>
          <Field label={t('link-form.expires')}>
            <input type="datetime-local" value={form.expiresAt} onInput={set('expiresAt')} />
          </Field>
        </div>
        <Field label={t('link-form.successUrl')} hint={t('link-form.successUrlHint', { token: '{CHECKOUT_ID}' })}>
          <input type="url" maxLength={2048} value={form.successUrl} onInput={set('successUrl')} />
        </Field>
        <Field label={t('link-form.cancelUrl')} hint={t('link-form.cancelUrlHint')}>
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
      <Field label={t('link-form.amount')}>
        <input required inputMode="decimal" value={form.amount} onInput={set('amount')} />
      </Field>
    );
  if (form.pricing === 'open')
    return (
      <div class="grid">
        <Field label={t('link-form.lowest')}>
          <input inputMode="decimal" value={form.minAmount} onInput={set('minAmount')} />
        </Field>
        <Field label={t('link-form.highest')}>
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
          <legend>{t('link-form.line', { n: i + 1 })}</legend>
          <LineField label={t('link-form.item')} n={i}>
            <input required maxLength={200} value={l.name} onInput={setLine(i, 'name')} />
          </LineField>
          <LineField label={t('link-form.quantity')} n={i}>
            <input required inputMode="numeric" value={l.quantity} onInput={setLine(i, 'quantity')} />
          </LineField>
          <LineField label={t('link-form.unitPrice')} n={i}>
            <input required inputMode="decimal" value={l.unitAmount} onInput={setLine(i, 'unitAmount')} />
          </LineField>
          {lines.length > 1 ? (
            <button type="button" onClick={() => setForm({ ...form, lines: lines.filter((_, j) => j !== i) })}>
              {t('link-form.remove')} <span class="sr-only">{t('link-form.lineLower', { n: i + 1 })}</span>
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
          {t('link-form.addLine')}
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
          <span class="sr-only">{t('link-form.lineOfField', { n: n + 1 })}</span>
          {label}
        </span>
        {children}
      </label>
    </div>
  );
}
