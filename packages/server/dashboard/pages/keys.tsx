import { useState } from 'preact/hooks';
import { ActionForm } from '../../ui-kit/action-form.js';
import {
  ActionStatus,
  ErrorNote,
  Field,
  Loading,
  Table,
  time,
  useAction,
  useAsync,
  useConfirm,
} from '../../ui-kit/ui.js';
import { dash, dashWrite, type Session } from '../api.js';
import { t } from '../messages.js';

/** API keys of the merchant: create with scopes (the secret shown once), roll, revoke. */

export const SCOPES = [
  'wallets:read',
  'fees:read',
  'checkout:read',
  'checkout:write',
  'events:read',
  'webhooks:write',
  'payouts:read',
  'payouts:write',
  'reports:read',
  'links:read',
  'links:write',
  'invoices:read',
  'invoices:write',
] as const;

interface Key {
  id: string;
  label: string | null;
  scopes: string[];
  status: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt?: string | null;
  /** Who made it (the audit log's record); null for a key the log has no record of. */
  createdBy?: Creator | null;
}
type Creator =
  | { kind: 'user'; email: string; userId: string | null; role: string | null }
  | { kind: 'operator'; name: string };
interface CreatedKey extends Key {
  apiKey?: string;
  apiSecret: string;
}

/** The creator as the table shows it: a team member with their role now (a key keeps its scopes), or the operator. */
function creatorText(c: Creator | null | undefined): string {
  if (c === null || c === undefined) return '—';
  if (c.kind === 'operator') return t('keys.byOperator', { name: c.name });
  return c.role === null
    ? t('keys.byFormerMember', { email: c.email })
    : t('keys.byMember', { email: c.email, role: c.role });
}
const creatorKey = (c: Creator | null | undefined) => (c === null || c === undefined ? '' : creatorText(c));

/** A list answer as an array, whether it came bare or as a page. */
const itemsOf = <T,>(r: T[] | { items: T[] }): T[] => (Array.isArray(r) ? r : r.items);

function SecretOnce({ created, onClose }: { created: CreatedKey; onClose: () => void }) {
  return (
    <section class="secret" aria-labelledby="secret-h" data-testid="key-secret">
      <h2 id="secret-h">{t('keys.secretTitle')}</h2>
      <p>{t('keys.secretOnce')}</p>
      <dl class="facts">
        <dt>{t('keys.keyId')}</dt>
        <dd>
          <code>{created.apiKey ?? created.id}</code>
        </dd>
        <dt>{t('keys.secret')}</dt>
        <dd>
          <code>{created.apiSecret}</code>
        </dd>
      </dl>
      <button type="button" onClick={onClose}>
        {t('keys.copied')}
      </button>
    </section>
  );
}

export function ApiKeys({ session }: { session: Session }) {
  // A user hands out no more than their role holds (the server refuses more: SCOPE_MISSING).
  const offered = SCOPES.filter((s) => session.scopes.includes(s));
  const keys = useAsync(() => dash<Key[] | { items: Key[] }>('/keys').then(itemsOf), []);
  const [label, setLabel] = useState('');
  const [scopes, setScopes] = useState<string[]>(offered.filter((s) => s !== 'payouts:write'));
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [maker, setMaker] = useState('');
  const makers = [...new Set((keys.data ?? []).map((k) => creatorKey(k.createdBy)).filter((m) => m !== ''))];
  const shown = (keys.data ?? []).filter((k) => maker === '' || creatorKey(k.createdBy) === maker);
  const action = useAction();
  const confirm = useConfirm();
  return (
    <>
      <h1>{t('keys.title')}</h1>
      <p class="muted">{t('keys.intro')}</p>
      {created ? <SecretOnce created={created} onClose={() => setCreated(null)} /> : null}
      <ActionForm
        action={action}
        id="newkey-h"
        title={t('keys.createTitle')}
        submit={t('keys.createSubmit')}
        disabled={scopes.length === 0}
        status={false}
        onSubmit={() =>
          action.run(t('keys.created'), async () => {
            setCreated(
              await dashWrite<CreatedKey>('POST', '/keys', {
                scopes,
                ...(label.trim() ? { label: label.trim() } : {}),
              }),
            );
            setLabel('');
          })
        }
      >
        <Field label={t('keys.labelOptional')}>
          <input maxLength={100} value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
        </Field>
        <fieldset class="scopes">
          <legend>{t('keys.scopes')}</legend>
          {offered.map((s) => (
            <label key={s}>
              <input
                type="checkbox"
                checked={scopes.includes(s)}
                onChange={(e) => setScopes(e.currentTarget.checked ? [...scopes, s] : scopes.filter((x) => x !== s))}
              />{' '}
              {s}
            </label>
          ))}
        </fieldset>
      </ActionForm>
      <ActionStatus action={action} />
      {confirm.dialog}
      <h2>{t('keys.keysTitle')}</h2>
      <p class="muted">{t('keys.keepsScopes')}</p>
      {makers.length > 1 ? (
        <Field label={t('keys.createdBy')}>
          <select value={maker} onChange={(e) => setMaker(e.currentTarget.value)}>
            <option value="">{t('keys.anyone')}</option>
            {makers.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
      <ErrorNote error={keys.error} />
      {keys.data === undefined ? (
        keys.error ? null : (
          <Loading what={t('keys.loadingWhat')} />
        )
      ) : (
        <Table
          caption={t('keys.title')}
          rows={shown}
          rowKey={(k) => k.id}
          empty={t('keys.noneYet')}
          columns={[
            { label: t('keys.key'), render: (k) => <code>{k.id}</code> },
            { label: t('keys.label'), render: (k) => k.label ?? '—' },
            { label: t('keys.scopes'), render: (k) => k.scopes.join(', ') },
            { label: t('keys.status'), render: (k) => k.status },
            { label: t('keys.createdBy'), render: (k) => creatorText(k.createdBy) },
            { label: t('keys.lastUsed'), render: (k) => time(k.lastUsedAt) },
            {
              label: t('keys.actions'),
              render: (k) =>
                k.status === 'active' ? (
                  <div class="row-actions">
                    <button
                      type="button"
                      onClick={() =>
                        confirm.ask({
                          title: t('keys.rollTitle'),
                          body: <p>{t('keys.rollBody')}</p>,
                          confirm: t('keys.rollConfirm'),
                          action: () =>
                            action.run(t('keys.rolled'), async () =>
                              setCreated(await dashWrite<CreatedKey>('POST', `/keys/${k.id}/roll`)),
                            ),
                        })
                      }
                    >
                      {t('keys.roll')} <span class="sr-only">{k.id}</span>
                    </button>
                    <button
                      type="button"
                      class="danger"
                      onClick={() =>
                        confirm.ask({
                          title: t('keys.revokeTitle'),
                          body: <p>{t('keys.revokeBody')}</p>,
                          confirm: t('keys.revokeConfirm'),
                          danger: true,
                          action: () => action.run(t('keys.revoked'), () => dashWrite('DELETE', `/keys/${k.id}`)),
                        })
                      }
                    >
                      {t('keys.revoke')} <span class="sr-only">{k.id}</span>
                    </button>
                  </div>
                ) : null,
            },
          ]}
        />
      )}
    </>
  );
}
