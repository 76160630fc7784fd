import { useState } from 'preact/hooks';
import { admin, adminWrite, qs } from '../api.js';
import type { ApiKey, Merchant, Page } from '../views.js';
import {
  ActionStatus,
  ErrorNote,
  Field,
  link,
  Loading,
  Pager,
  Table,
  time,
  useAction,
  useAsync,
  useConfirm,
  usePager,
} from '../../ui-kit/ui.js';

/** Every scope a key can carry (protocol SCOPES, checked by console-browser.test.ts). */
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
];
/** Checked by default: all but payouts:write, which moves money out and is asked for by name. */
const DEFAULT_CHECKED = SCOPES.filter((s) => s !== 'payouts:write');

/** API keys: create (the secret shown once), rotate, revoke, scopes and IP allow-lists. */
export function Keys() {
  return (
    <section aria-labelledby="keys-h">
      <h1 id="keys-h">API keys</h1>
      <KeyList />
    </section>
  );
}

export function KeyList({ merchantId }: { merchantId?: string }) {
  const pager = usePager();
  const list = useAsync(
    () => admin<Page<ApiKey>>(`/keys${qs({ merchantId, cursor: pager.cursor })}`),
    [merchantId, pager.cursor],
  );
  const [secret, setSecret] = useState<{ apiKey: string; apiSecret: string } | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <>
      <h2>{merchantId ? 'API keys' : "Every merchant's keys"}</h2>
      <CreateKey
        merchantId={merchantId}
        onCreated={(k) => {
          setSecret(k);
          list.reload();
        }}
      />
      {secret ? <SecretOnce secret={secret} onClose={() => setSecret(null)} /> : null}
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what="keys" />
      ) : (
        <>
          <Table
            caption="API keys"
            rows={list.data.items}
            rowKey={(k) => k.id}
            columns={[
              { label: 'Key', render: (k) => <code>{k.id}</code> },
              { label: 'Label', render: (k) => k.label ?? '—' },
              { label: 'Merchant', render: (k) => <a href={link(`/merchants/${k.merchantId}`)}>{k.merchantId}</a> },
              {
                label: 'Status',
                render: (k) => (
                  <span class={`status s-${k.status}`}>
                    {k.expiresAt && k.status === 'active' ? `active until ${time(k.expiresAt)}` : k.status}
                  </span>
                ),
              },
              { label: 'Scopes', render: (k) => k.scopes.join(', ') },
              {
                label: 'IP allow-list',
                render: (k) => (k.ipAllowList ? k.ipAllowList.join(', ') : 'any address'),
              },
              {
                label: 'Actions',
                render: (k) =>
                  k.status === 'active' ? (
                    <KeyActions
                      k={k}
                      editing={editing === k.id}
                      onEdit={() => setEditing(editing === k.id ? null : k.id)}
                      onRotated={(n) => {
                        setSecret(n);
                        list.reload();
                      }}
                      onDone={list.reload}
                    />
                  ) : (
                    '—'
                  ),
              },
            ]}
          />
          {editing ? (
            <EditKey
              k={list.data.items.find((k) => k.id === editing)!}
              onDone={() => {
                setEditing(null);
                list.reload();
              }}
            />
          ) : null}
          <Pager pager={pager} nextCursor={list.data.nextCursor} />
        </>
      )}
    </>
  );
}

function KeyActions({
  k,
  editing,
  onEdit,
  onRotated,
  onDone,
}: {
  k: ApiKey;
  editing: boolean;
  onEdit: () => void;
  onRotated: (s: { apiKey: string; apiSecret: string }) => void;
  onDone: () => void;
}) {
  const action = useAction();
  const confirm = useConfirm();
  return (
    <div class="row-actions">
      {confirm.dialog}
      <button type="button" aria-expanded={editing} onClick={onEdit}>
        Edit <span class="sr-only">{k.id}</span>
      </button>
      <button
        type="button"
        disabled={action.busy}
        onClick={() =>
          confirm.ask({
            title: `Rotate ${k.id}?`,
            body: (
              <p>
                A new key and secret replace {k.id} of merchant <code>{k.merchantId}</code> (shown once); the old one
                stops working as the API's rotation rules say. The merchant must switch to the new secret.
              </p>
            ),
            confirm: 'Rotate',
            action: () =>
              action.run('Key rotated.', async () => {
                const r = await adminWrite<{ new: { apiKey: string; apiSecret: string } }>(
                  'POST',
                  `/keys/${k.id}/rotate`,
                );
                onRotated(r.new);
              }),
          })
        }
      >
        Rotate <span class="sr-only">{k.id}</span>
      </button>
      <button
        type="button"
        class="danger"
        disabled={action.busy}
        onClick={() =>
          confirm.ask({
            title: `Revoke ${k.id}?`,
            danger: true,
            body: (
              <p>
                Requests of merchant <code>{k.merchantId}</code> signed with {k.id}
                {k.label ? ` (${k.label})` : ''} are refused from now on. This cannot be undone.
              </p>
            ),
            confirm: `Revoke ${k.id}`,
            action: async () =>
              (await action.run('Key revoked.', () => adminWrite('POST', `/keys/${k.id}/revoke`))) && onDone(),
          })
        }
      >
        Revoke <span class="sr-only">{k.id}</span>
      </button>
      <ErrorNote error={action.error} />
    </div>
  );
}

const lines = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

function ScopeBoxes({ scopes, set }: { scopes: string[]; set: (s: string[]) => void }) {
  return (
    <fieldset class="scopes">
      <legend>Scopes</legend>
      {SCOPES.map((s) => (
        <label key={s}>
          <input
            type="checkbox"
            checked={scopes.includes(s)}
            onChange={(e) => set(e.currentTarget.checked ? [...scopes, s] : scopes.filter((x) => x !== s))}
          />{' '}
          {s}
        </label>
      ))}
    </fieldset>
  );
}

function CreateKey({
  merchantId,
  onCreated,
}: {
  merchantId?: string | undefined;
  onCreated: (k: { apiKey: string; apiSecret: string }) => void;
}) {
  const merchants = useAsync(
    () => (merchantId ? Promise.resolve({ items: [] as Merchant[] }) : admin<Page<Merchant>>('/merchants?limit=200')),
    [merchantId],
  );
  const [form, setForm] = useState({
    merchantId: merchantId ?? '',
    label: '',
    allow: '',
    scopes: [...DEFAULT_CHECKED],
  });
  const action = useAction();
  const target = merchantId ?? (form.merchantId || merchants.data?.items[0]?.id || '');
  return (
    <form
      class="card-form"
      aria-label="Create an API key"
      onSubmit={async (e) => {
        e.preventDefault();
        const allow = lines(form.allow);
        await action.run('Key created: copy the secret now.', async () => {
          const k = await adminWrite<{ apiKey: string; apiSecret: string }>('POST', `/merchants/${target}/keys`, {
            scopes: form.scopes,
            ...(form.label ? { label: form.label } : {}),
            ...(allow.length ? { ipAllowList: allow } : {}),
          });
          onCreated(k);
        });
      }}
    >
      <h3>Create an API key</h3>
      {merchantId ? null : (
        <Field label="Merchant">
          <select value={target} onChange={(e) => setForm({ ...form, merchantId: e.currentTarget.value })}>
            {(merchants.data?.items ?? []).map((m) => (
              <option key={m.id} value={m.id}>
                {m.name} ({m.id})
              </option>
            ))}
          </select>
        </Field>
      )}
      <Field label="Label">
        <input value={form.label} maxLength={200} onInput={(e) => setForm({ ...form, label: e.currentTarget.value })} />
      </Field>
      <ScopeBoxes scopes={form.scopes} set={(scopes) => setForm({ ...form, scopes })} />
      <Field label="IP allow-list" hint="addresses or CIDR ranges, one per line or comma-separated; empty: any address">
        <textarea rows={2} value={form.allow} onInput={(e) => setForm({ ...form, allow: e.currentTarget.value })} />
      </Field>
      <button type="submit" class="primary" disabled={action.busy || target === '' || form.scopes.length === 0}>
        Create key
      </button>
      <ActionStatus action={action} />
    </form>
  );
}

function SecretOnce({ secret, onClose }: { secret: { apiKey: string; apiSecret: string }; onClose: () => void }) {
  return (
    <div class="secret" role="alertdialog" aria-labelledby="secret-h" data-testid="secret">
      <h3 id="secret-h">Store this secret now: it is not shown again</h3>
      <dl class="facts">
        <dt>API key</dt>
        <dd>
          <code data-testid="new-key">{secret.apiKey}</code>
        </dd>
        <dt>API secret</dt>
        <dd>
          <code data-testid="new-secret">{secret.apiSecret}</code>
        </dd>
      </dl>
      <button type="button" onClick={onClose}>
        I have stored it
      </button>
    </div>
  );
}

function EditKey({ k, onDone }: { k: ApiKey; onDone: () => void }) {
  const [scopes, setScopes] = useState<string[]>(k.scopes);
  const [allow, setAllow] = useState((k.ipAllowList ?? []).join('\n'));
  const action = useAction();
  return (
    <form
      class="card-form"
      aria-label={`Edit ${k.id}`}
      onSubmit={async (e) => {
        e.preventDefault();
        const list = lines(allow);
        if (
          await action.run('Key updated.', () =>
            adminWrite('PATCH', `/keys/${k.id}`, { scopes, ipAllowList: list.length ? list : null }),
          )
        )
          onDone();
      }}
    >
      <h3>Edit {k.id}</h3>
      <ScopeBoxes scopes={scopes} set={setScopes} />
      <Field label="IP allow-list" hint="empty: any address">
        <textarea rows={3} value={allow} onInput={(e) => setAllow(e.currentTarget.value)} />
      </Field>
      <button type="submit" class="primary" disabled={action.busy || scopes.length === 0}>
        Save
      </button>
      <ActionStatus action={action} />
    </form>
  );
}
