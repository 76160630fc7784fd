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
  if (c.kind === 'operator') return `operator (${c.name})`;
  return `${c.email} (${c.role === null ? 'no longer in the team' : `now ${c.role}`})`;
}
const creatorKey = (c: Creator | null | undefined) => (c === null || c === undefined ? '' : creatorText(c));

/** A list answer as an array, whether it came bare or as a page. */
const itemsOf = <T,>(r: T[] | { items: T[] }): T[] => (Array.isArray(r) ? r : r.items);

function SecretOnce({ created, onClose }: { created: CreatedKey; onClose: () => void }) {
  return (
    <section class="secret" aria-labelledby="secret-h" data-testid="key-secret">
      <h2 id="secret-h">Copy the secret now</h2>
      <p>It is shown only this once; hostpay keeps it sealed and cannot show it again.</p>
      <dl class="facts">
        <dt>Key id</dt>
        <dd>
          <code>{created.apiKey ?? created.id}</code>
        </dd>
        <dt>Secret</dt>
        <dd>
          <code>{created.apiSecret}</code>
        </dd>
      </dl>
      <button type="button" onClick={onClose}>
        I have copied it
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
      <h1>API keys</h1>
      <p class="muted">Keys sign your server's calls to the merchant API. Give each only the scopes it needs.</p>
      {created ? <SecretOnce created={created} onClose={() => setCreated(null)} /> : null}
      <ActionForm
        action={action}
        id="newkey-h"
        title="Create a key"
        submit="Create key"
        disabled={scopes.length === 0}
        status={false}
        onSubmit={() =>
          action.run('Key created.', async () => {
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
        <Field label="Label (optional)">
          <input maxLength={100} value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
        </Field>
        <fieldset class="scopes">
          <legend>Scopes</legend>
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
      <h2>Keys</h2>
      <p class="muted">
        A key keeps the scopes it was made with when its creator's role changes or they leave the team: roll or revoke
        the keys of someone demoted.
      </p>
      {makers.length > 1 ? (
        <Field label="Created by">
          <select value={maker} onChange={(e) => setMaker(e.currentTarget.value)}>
            <option value="">anyone</option>
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
          <Loading what="keys" />
        )
      ) : (
        <Table
          caption="API keys"
          rows={shown}
          rowKey={(k) => k.id}
          empty="No key yet."
          columns={[
            { label: 'Key', render: (k) => <code>{k.id}</code> },
            { label: 'Label', render: (k) => k.label ?? '—' },
            { label: 'Scopes', render: (k) => k.scopes.join(', ') },
            { label: 'Status', render: (k) => k.status },
            { label: 'Created by', render: (k) => creatorText(k.createdBy) },
            { label: 'Last used', render: (k) => time(k.lastUsedAt) },
            {
              label: 'Actions',
              render: (k) =>
                k.status === 'active' ? (
                  <div class="row-actions">
                    <button
                      type="button"
                      onClick={() =>
                        confirm.ask({
                          title: 'Roll this key?',
                          body: <p>A new secret replaces this key's; update your server with it.</p>,
                          confirm: 'Roll key',
                          action: () =>
                            action.run('Key rolled.', async () =>
                              setCreated(await dashWrite<CreatedKey>('POST', `/keys/${k.id}/roll`)),
                            ),
                        })
                      }
                    >
                      Roll <span class="sr-only">{k.id}</span>
                    </button>
                    <button
                      type="button"
                      class="danger"
                      onClick={() =>
                        confirm.ask({
                          title: 'Revoke this key?',
                          body: <p>Every call signed with it is refused from now on.</p>,
                          confirm: 'Revoke key',
                          danger: true,
                          action: () => action.run('Key revoked.', () => dashWrite('DELETE', `/keys/${k.id}`)),
                        })
                      }
                    >
                      Revoke <span class="sr-only">{k.id}</span>
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
