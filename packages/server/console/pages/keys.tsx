import { useState } from 'preact/hooks';
import { admin, adminWrite, qs } from '../api.js';
import { t } from '../messages.js';
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
      <h1 id="keys-h">{t('keys.title')}</h1>
      <KeyList />
    </section>
  );
}

/** A key's status, with its end when an active key expires. */
const statusText = (k: ApiKey) =>
  k.expiresAt && k.status === 'active' ? t('keys.activeUntil', { time: time(k.expiresAt) }) : k.status;

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
      <h2>{merchantId ? t('keys.title') : t('keys.everyMerchant')}</h2>
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
        <Loading what={t('keys.what')} />
      ) : (
        <>
          <Table
            caption={t('keys.caption')}
            rows={list.data.items}
            rowKey={(k) => k.id}
            columns={[
              { label: t('keys.key'), render: (k) => <code>{k.id}</code> },
              { label: t('keys.label'), render: (k) => k.label ?? '—' },
              {
                label: t('keys.merchant'),
                render: (k) => <a href={link(`/merchants/${k.merchantId}`)}>{k.merchantId}</a>,
              },
              {
                label: t('keys.status'),
                render: (k) => <span class={`status s-${k.status}`}>{statusText(k)}</span>,
              },
              { label: t('keys.scopes'), render: (k) => k.scopes.join(', ') },
              {
                label: t('keys.allowList'),
                render: (k) => (k.ipAllowList ? k.ipAllowList.join(', ') : t('keys.anyAddress')),
              },
              {
                label: t('keys.actions'),
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
        {t('keys.edit')} <span class="sr-only">{k.id}</span>
      </button>
      <button
        type="button"
        disabled={action.busy}
        onClick={() =>
          confirm.ask({
            title: t('keys.rotateTitle', { id: k.id }),
            body: (
              <p>
                {t('keys.rotateBefore', { id: k.id })} <code>{k.merchantId}</code> {t('keys.rotateAfter')}
              </p>
            ),
            confirm: t('keys.rotate'),
            action: () =>
              action.run(t('keys.rotated'), async () => {
                const r = await adminWrite<{ new: { apiKey: string; apiSecret: string } }>(
                  'POST',
                  `/keys/${k.id}/rotate`,
                );
                onRotated(r.new);
              }),
          })
        }
      >
        {t('keys.rotate')} <span class="sr-only">{k.id}</span>
      </button>
      <button
        type="button"
        class="danger"
        disabled={action.busy}
        onClick={() =>
          confirm.ask({
            title: t('keys.revokeTitle', { id: k.id }),
            danger: true,
            body: (
              <p>
                {t('keys.revokeBefore')} <code>{k.merchantId}</code>{' '}
                {t('keys.revokeAfter', { id: k.id, labelled: k.label ? 'yes' : 'no', label: k.label ?? '' })}
              </p>
            ),
            confirm: t('keys.revokeConfirm', { id: k.id }),
            action: async () =>
              (await action.run(t('keys.revoked'), () => adminWrite('POST', `/keys/${k.id}/revoke`))) && onDone(),
          })
        }
      >
        {t('keys.revoke')} <span class="sr-only">{k.id}</span>
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
      <legend>{t('keys.scopes')}</legend>
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
      aria-label={t('keys.create')}
      onSubmit={async (e) => {
        e.preventDefault();
        const allow = lines(form.allow);
        await action.run(t('keys.created'), async () => {
          const k = await adminWrite<{ apiKey: string; apiSecret: string }>('POST', `/merchants/${target}/keys`, {
            scopes: form.scopes,
            ...(form.label ? { label: form.label } : {}),
            ...(allow.length ? { ipAllowList: allow } : {}),
          });
          onCreated(k);
        });
      }}
    >
      <h3>{t('keys.create')}</h3>
      {merchantId ? null : (
        <Field label={t('keys.merchant')}>
          <select value={target} onChange={(e) => setForm({ ...form, merchantId: e.currentTarget.value })}>
            {(merchants.data?.items ?? []).map((m) => (
              <option key={m.id} value={m.id}>
                {m.name} ({m.id})
              </option>
            ))}
          </select>
        </Field>
      )}
      <Field label={t('keys.label')}>
        <input value={form.label} maxLength={200} onInput={(e) => setForm({ ...form, label: e.currentTarget.value })} />
      </Field>
      <ScopeBoxes scopes={form.scopes} set={(scopes) => setForm({ ...form, scopes })} />
      <Field label={t('keys.allowList')} hint={t('keys.allowListHint')}>
        <textarea rows={2} value={form.allow} onInput={(e) => setForm({ ...form, allow: e.currentTarget.value })} />
      </Field>
      <button type="submit" class="primary" disabled={action.busy || target === '' || form.scopes.length === 0}>
        {t('keys.createKey')}
      </button>
      <ActionStatus action={action} />
    </form>
  );
}

function SecretOnce({ secret, onClose }: { secret: { apiKey: string; apiSecret: string }; onClose: () => void }) {
  return (
    <div class="secret" role="alertdialog" aria-labelledby="secret-h" data-testid="secret">
      <h3 id="secret-h">{t('keys.secretTitle')}</h3>
      <dl class="facts">
        <dt>{t('keys.apiKey')}</dt>
        <dd>
          <code data-testid="new-key">{secret.apiKey}</code>
        </dd>
        <dt>{t('keys.apiSecret')}</dt>
        <dd>
          <code data-testid="new-secret">{secret.apiSecret}</code>
        </dd>
      </dl>
      <button type="button" onClick={onClose}>
        {t('keys.stored')}
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
      aria-label={t('keys.editTitle', { id: k.id })}
      onSubmit={async (e) => {
        e.preventDefault();
        const list = lines(allow);
        if (
          await action.run(t('keys.updated'), () =>
            adminWrite('PATCH', `/keys/${k.id}`, { scopes, ipAllowList: list.length ? list : null }),
          )
        )
          onDone();
      }}
    >
      <h3>{t('keys.editTitle', { id: k.id })}</h3>
      <ScopeBoxes scopes={scopes} set={setScopes} />
      <Field label={t('keys.allowList')} hint={t('keys.allowListEmpty')}>
        <textarea rows={3} value={allow} onInput={(e) => setAllow(e.currentTarget.value)} />
      </Field>
      <button type="submit" class="primary" disabled={action.busy || scopes.length === 0}>
        {t('keys.save')}
      </button>
      <ActionStatus action={action} />
    </form>
  );
}
