import { useState } from 'preact/hooks';
import { ActionForm } from '../../ui-kit/action-form.js';
import { ErrorNote, Field, Loading, useAction, useAsync } from '../../ui-kit/ui.js';
import { dash, dashWrite, manages, type Session } from '../api.js';
import { PAYER_LANGUAGES } from '../languages.js';
import { t } from '../messages.js';

interface MerchantSettings {
  displayName: string | null;
  logoUrl: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  supportEmail: string | null;
  emailReceipts: boolean;
  brandColor: string | null;
  accentColor: string | null;
  language: string | null;
}

type TextSetting = Exclude<keyof MerchantSettings, 'emailReceipts' | 'brandColor' | 'accentColor' | 'language'>;
type ColourSetting = 'brandColor' | 'accentColor';

/**
 * What the payment page shows (display name, logo) and where it sends the payer by default; and
 * the user's own password and sessions.
 */
export function Settings({ session }: { session: Session }) {
  const settings = useAsync(() => dash<MerchantSettings>('/settings'), []);
  return (
    <>
      <h1>{t('settings.title')}</h1>
      <ErrorNote error={settings.error} />
      {settings.data === undefined && !settings.error ? <Loading what={t('settings.what')} /> : null}
      {/* The form appears with the stored values, never before: typed into an empty form while the
          values load, a field would be overwritten by them (and saved that way). */}
      {settings.data === undefined ? null : <PaymentPageForm stored={settings.data} editable={manages(session)} />}
      <ChangePassword />
      <SignOutEverywhere />
    </>
  );
}

function PaymentPageForm({ stored, editable }: { stored: MerchantSettings; editable: boolean }) {
  const [form, setForm] = useState(() => ({
    displayName: stored.displayName ?? '',
    logoUrl: stored.logoUrl ?? '',
    successUrl: stored.successUrl ?? '',
    cancelUrl: stored.cancelUrl ?? '',
    supportEmail: stored.supportEmail ?? '',
    brandColor: stored.brandColor ?? '',
    accentColor: stored.accentColor ?? '',
    language: stored.language ?? '',
  }));
  // Whether a payer who gave an email gets the receipt by mail (on unless turned off; docs/mail.md).
  const [emailReceipts, setEmailReceipts] = useState(stored.emailReceipts !== false);
  const action = useAction();
  const input = (k: TextSetting, url = false) => (
    <input
      inputMode={url ? 'url' : 'text'}
      readOnly={!editable}
      maxLength={k === 'displayName' ? 100 : k === 'logoUrl' ? 65536 : k === 'supportEmail' ? 254 : 2048}
      value={form[k]}
      onInput={(e) => setForm({ ...form, [k]: e.currentTarget.value })}
    />
  );
  return (
    <ActionForm
      action={action}
      id="page-h"
      title={t('settings.pageTitle')}
      submit={editable ? t('settings.save') : undefined}
      onSubmit={() =>
        editable &&
        action.run(t('settings.saved'), () =>
          dashWrite('PATCH', '/settings', {
            displayName: form.displayName.trim() || null,
            logoUrl: form.logoUrl.trim() || null,
            successUrl: form.successUrl.trim() || null,
            cancelUrl: form.cancelUrl.trim() || null,
            supportEmail: form.supportEmail.trim() || null,
            emailReceipts,
            brandColor: form.brandColor.trim() || null,
            accentColor: form.accentColor.trim() || null,
            language: form.language || null,
          }),
        )
      }
    >
      <Field label={t('settings.displayName')} hint={t('settings.displayNameHint')}>
        {input('displayName')}
      </Field>
      <Field label={t('settings.logoUrl')} hint={t('settings.logoUrlHint')}>
        {input('logoUrl', true)}
      </Field>
      {editable ? (
        <Field label={t('settings.logoImage')} hint={t('settings.logoImageHint')}>
          <input
            type="file"
            accept="image/png,image/jpeg,image/webp"
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              if (!file) return;
              // Read here into a data: URL: the image needs no host, and the page's CSP allows data: images.
              const reader = new FileReader();
              reader.onload = () => setForm((f) => ({ ...f, logoUrl: String(reader.result) }));
              reader.readAsDataURL(file);
            }}
          />
        </Field>
      ) : null}
      {form.logoUrl.startsWith('data:image/') ? (
        <img class="logo-preview" src={form.logoUrl} alt={t('settings.logoAlt')} />
      ) : null}
      <Field label={t('settings.successUrl')} hint={t('settings.successUrlHint')}>
        {input('successUrl', true)}
      </Field>
      <Field label={t('settings.cancelUrl')}>{input('cancelUrl', true)}</Field>
      <Field label={t('settings.supportEmail')} hint={t('settings.supportEmailHint')}>
        {input('supportEmail')}
      </Field>
      <label class="check">
        <input
          type="checkbox"
          disabled={!editable}
          checked={emailReceipts}
          onChange={(e) => setEmailReceipts(e.currentTarget.checked)}
        />{' '}
        {t('settings.receipts')}
      </label>
      <ColourField
        field="brandColor"
        label={t('settings.brandColour')}
        hint={t('settings.brandColourHint')}
        value={form.brandColor}
        editable={editable}
        error={action.error}
        set={(v) => setForm((f) => ({ ...f, brandColor: v }))}
      />
      <ColourField
        field="accentColor"
        label={t('settings.accentColour')}
        hint={t('settings.accentColourHint')}
        value={form.accentColor}
        editable={editable}
        error={action.error}
        set={(v) => setForm((f) => ({ ...f, accentColor: v }))}
      />
      <Field label={t('settings.language')} hint={t('settings.languageHint')}>
        <select
          disabled={!editable}
          value={form.language}
          onChange={(e) => setForm({ ...form, language: e.currentTarget.value })}
        >
          <option value="">{t('settings.languageDefault')}</option>
          {PAYER_LANGUAGES.map(([code, name]) => (
            <option key={code} value={code} lang={code}>
              {name}
            </option>
          ))}
        </select>
      </Field>
      {editable ? null : <p class="muted">{t('settings.readOnly')}</p>}
    </ActionForm>
  );
}

/**
 * A colour as #rrggbb text beside the browser's picker (which cannot be empty, so it shows black
 * for "none"); the server's refusal of this field (its message starts with the field's name, and
 * names the contrast and a passing shade) stands under it.
 */
function ColourField(p: {
  field: ColourSetting;
  label: string;
  hint: string;
  value: string;
  editable: boolean;
  error: unknown;
  set: (v: string) => void;
}) {
  const message = p.error instanceof Error && p.error.message.startsWith(`${p.field} `) ? p.error.message : null;
  const errorId = `${p.field}-error`;
  return (
    <div class="field colour-field">
      <label>
        <span>{p.label}</span>
        <input
          readOnly={!p.editable}
          maxLength={7}
          placeholder={t('settings.colourPlaceholder')}
          value={p.value}
          aria-invalid={message === null ? undefined : true}
          aria-describedby={message === null ? undefined : errorId}
          onInput={(e) => p.set(e.currentTarget.value)}
        />
      </label>
      <input
        type="color"
        aria-label={t('settings.picker', { label: p.label })}
        disabled={!p.editable}
        value={/^#[0-9a-f]{6}$/i.test(p.value) ? p.value.toLowerCase() : '#000000'}
        onInput={(e) => p.set(e.currentTarget.value)}
      />
      <small class="muted">{p.hint}</small>
      {message === null ? null : (
        <small class="error" id={errorId}>
          {message}
        </small>
      )}
    </div>
  );
}

function ChangePassword() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const action = useAction();
  return (
    <ActionForm
      action={action}
      id="pw-h"
      title={t('settings.passwordTitle')}
      submit={t('settings.changePassword')}
      primary={false}
      onSubmit={() =>
        action.run(t('settings.passwordChanged'), async () => {
          await dashWrite('POST', '/password', { currentPassword, newPassword });
          setCurrent('');
          setNew('');
        })
      }
    >
      <div class="grid">
        <Field label={t('settings.currentPassword')}>
          <input
            type="password"
            autocomplete="current-password"
            required
            value={currentPassword}
            onInput={(e) => setCurrent(e.currentTarget.value)}
          />
        </Field>
        <Field label={t('settings.newPassword')} hint={t('settings.newPasswordHint')}>
          <input
            type="password"
            autocomplete="new-password"
            required
            minLength={12}
            value={newPassword}
            onInput={(e) => setNew(e.currentTarget.value)}
          />
        </Field>
      </div>
    </ActionForm>
  );
}

function SignOutEverywhere() {
  const action = useAction();
  return (
    <section class="card-form" aria-labelledby="everywhere-h">
      <h2 id="everywhere-h">{t('settings.sessions')}</h2>
      <p>{t('settings.sessionsNote')}</p>
      <button
        type="button"
        class="danger"
        disabled={action.busy}
        onClick={() =>
          void action.run(t('settings.signedOutEverywhere'), async () => {
            await dashWrite('POST', '/sign-out-everywhere');
            location.assign('/dashboard');
          })
        }
      >
        {t('settings.signOutEverywhere')}
      </button>
      <ErrorNote error={action.error} />
    </section>
  );
}
