import { useState } from 'preact/hooks';
import { ActionForm } from '../../ui-kit/action-form.js';
import { ErrorNote, Loading, time, useAction, useAsync } from '../../ui-kit/ui.js';
import { dash, dashWrite } from '../api.js';
import { t } from '../messages.js';

type Preferences = Record<string, boolean>;
interface Bounce {
  address: string;
  at: string;
  reason: string;
}

/** The six switches, in the order shown, with what each mails. */
const SWITCHES: [name: string, label: string][] = [
  ['checkoutSettled', t('notifications.checkoutSettled')],
  ['checkoutNeedsReview', t('notifications.checkoutNeedsReview')],
  ['payoutCompleted', t('notifications.payoutCompleted')],
  ['payoutFailed', t('notifications.payoutFailed')],
  ['refundCompleted', t('notifications.refundCompleted')],
  ['webhookEndpointDisabled', t('notifications.webhookEndpointDisabled')],
];

/**
 * The signed-in user's mail notifications (each user their own; security notices are always
 * sent), and the team's addresses that bounced (not mailed again until changed).
 */
export function Notifications() {
  const prefs = useAsync(() => dash<Preferences>('/notifications'), []);
  const bounces = useAsync(() => dash<{ items: Bounce[] }>('/mail-bounces'), []);
  return (
    <>
      <h1>{t('notifications.title')}</h1>
      <ErrorNote error={prefs.error} />
      {prefs.data === undefined ? (
        prefs.error ? null : (
          <Loading what={t('notifications.what')} />
        )
      ) : (
        <PreferencesForm stored={prefs.data} />
      )}
      <section aria-labelledby="bounces-h">
        <h2 id="bounces-h">{t('notifications.bounced')}</h2>
        <ErrorNote error={bounces.error} />
        {bounces.data === undefined ? null : bounces.data.items.length === 0 ? (
          <p class="muted">{t('notifications.noBounce')}</p>
        ) : (
          <ul>
            {bounces.data.items.map((b) => (
              <li key={b.address}>
                <strong>{b.address}</strong> — {time(b.at)}: {b.reason}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function PreferencesForm({ stored }: { stored: Preferences }) {
  const [form, setForm] = useState<Preferences>(stored);
  const action = useAction();
  return (
    <ActionForm
      action={action}
      id="notify-h"
      title={t('notifications.formTitle')}
      submit={t('notifications.save')}
      onSubmit={() => action.run(t('notifications.saved'), () => dashWrite('PATCH', '/notifications', form))}
    >
      <p class="muted">{t('notifications.alwaysSent')}</p>
      {SWITCHES.map(([name, label]) => (
        <label key={name} class="check">
          <input
            type="checkbox"
            checked={form[name] === true}
            onChange={(e) => setForm({ ...form, [name]: e.currentTarget.checked })}
          />{' '}
          {label}
        </label>
      ))}
    </ActionForm>
  );
}
