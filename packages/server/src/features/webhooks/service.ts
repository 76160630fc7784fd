import { recordAudit, type AuditContext } from '../audit/service.js';
import { randomBytes } from 'node:crypto';
import { isoTime, ISO_TIME_HELP } from '../../http/iso-time.js';
import { page, type PageRequest } from '../../admin/pagination.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { HostpayError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import type { WebhookEndpointTable } from './tables.js';
import type { Db, Store } from '../../store/store.js';
import { EVENT_TYPES, type Outbox } from '../events/outbox.js';
import { checkWebhookUrl, type GuardOptions } from '../../outbound/guard.js';
import { maskWebhookUrl } from '../../outbound/mask-url.js';
import { insertDeliveries, subscribed } from './queue.js';
import { attemptView, endpointView } from './view.js';

export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
/** Owner ids bind a sealed secret to its endpoint (and slot): copied elsewhere it does not open. */
export const secretOwner = (id: string, slot: 'current' | 'previous' = 'current') =>
  slot === 'current' ? `webhook:${id}` : `webhook-previous:${id}`;
/** Who an endpoint's sealed URL belongs to. */
export const urlOwner = (id: string) => `webhook-url:${id}`;

/** The stored columns of endpoint `id`'s URL: sealed (it may carry the merchant's token), and masked for lists and logs. */
export const urlColumns = (box: Pick<SecretBox, 'seal'>, id: string, url: string) => ({
  url_sealed: box.seal(url, urlOwner(id)),
  url_shown: maskWebhookUrl(url),
});

export interface EndpointInput {
  url?: string | undefined;
  enabledEvents?: string[] | undefined;
  description?: string | null | undefined;
  disabled?: boolean | undefined;
}

export interface WebhookServiceOptions {
  store: Store;
  box: SecretBox;
  guard: GuardOptions;
  now: () => number;
  /** Tells the local worker there is work now (it also polls). */
  wake: () => void;
  /** Where the test event goes. */
  outbox: Outbox;
}

function checkEvents(list: string[] | undefined): string | undefined {
  if (list === undefined) return undefined;
  for (const t of list) {
    if (!(EVENT_TYPES as readonly string[]).includes(t) || t === 'test.ping') {
      throw new HostpayError(
        'INVALID_BODY',
        `enabledEvents: ${JSON.stringify(t)} is not an event type; use ${EVENT_TYPES.filter((e) => e !== 'test.ping').join(', ')} (empty: every type)`,
        { parameter: 'enabledEvents' },
      );
    }
  }
  return JSON.stringify([...new Set(list)]);
}

/**
 * The merchant's webhook endpoints and what is sent to them (spec/checkout.md, "Events and
 * webhooks"): CRUD, secret rotation with a 24 h overlap, test pings, the attempt log, redelivery
 * of one event and replay since a time. Deliveries themselves are the worker's (worker.ts).
 */
export function webhookService(opts: WebhookServiceOptions) {
  const { store, box } = opts;
  const db = store.db;
  const iso = () => new Date(opts.now()).toISOString();

  async function owned(merchantId: string | undefined, id: string, d: Db = db): Promise<WebhookEndpointTable> {
    let q = d.selectFrom('webhook_endpoints').selectAll().where('id', '=', id);
    if (merchantId !== undefined) q = q.where('merchant_id', '=', merchantId);
    const row = await q.executeTakeFirst();
    if (row === undefined) throw new HostpayError('NOT_FOUND', `webhook endpoint ${id} does not exist`);
    return row;
  }

  return {
    owned,

    async create(merchantId: string, input: EndpointInput & { url: string }) {
      const url = (await checkWebhookUrl(input.url, opts.guard)).href;
      const enabled = checkEvents(input.enabledEvents) ?? '[]';
      const id = newId('we', 12);
      const secret = newSecret();
      const at = iso();
      const row: WebhookEndpointTable = {
        id,
        merchant_id: merchantId,
        ...urlColumns(box, id, url),
        description: input.description ?? null,
        enabled_events: enabled,
        disabled: input.disabled === true ? 1 : 0,
        disabled_reason: input.disabled === true ? 'merchant' : null,
        disabled_at: input.disabled === true ? at : null,
        secret_sealed: box.seal(secret, secretOwner(id)),
        previous_secret_sealed: null,
        previous_secret_expires_at: null,
        last_success_at: null,
        failing_since: null,
        lease_owner: null,
        lease_expires_at: null,
        created_at: at,
        updated_at: at,
      };
      await store.writeTransaction((trx) => trx.insertInto('webhook_endpoints').values(row).execute());
      return endpointView(row, at, { secret, url });
    },

    async list(merchantId: string, req: PageRequest) {
      const at = iso();
      return page(
        db.selectFrom('webhook_endpoints').selectAll().where('merchant_id', '=', merchantId),
        'created_at',
        req,
        (r) => endpointView(r, at),
        'desc',
      );
    },

    get: async (merchantId: string, id: string) => endpointView(await owned(merchantId, id), iso()),

    async update(merchantId: string, id: string, input: EndpointInput) {
      const url = input.url === undefined ? undefined : (await checkWebhookUrl(input.url, opts.guard)).href;
      const enabled = checkEvents(input.enabledEvents);
      const at = iso();
      const row = await store.writeTransaction(async (trx) => {
        const before = await owned(merchantId, id, trx);
        const set: Partial<WebhookEndpointTable> = { updated_at: at };
        if (url !== undefined) Object.assign(set, urlColumns(box, id, url));
        if (enabled !== undefined) set.enabled_events = enabled;
        if (input.description !== undefined) set.description = input.description;
        if (input.disabled === true && before.disabled === 0)
          Object.assign(set, { disabled: 1, disabled_reason: 'merchant', disabled_at: at });
        // Re-enabling starts the 5-day failure clock afresh.
        if (input.disabled === false && before.disabled === 1)
          Object.assign(set, { disabled: 0, disabled_reason: null, disabled_at: null, failing_since: null });
        await trx.updateTable('webhook_endpoints').set(set).where('id', '=', id).execute();
        return { ...before, ...set };
      });
      if (input.disabled === false) opts.wake();
      return endpointView(row, at, url === undefined ? {} : { url });
    },

    async remove(merchantId: string, id: string) {
      const row = await owned(merchantId, id);
      await store.writeTransaction(async (trx) => {
        await trx.deleteFrom('webhook_attempts').where('endpoint_id', '=', id).execute();
        await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
        await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
      });
      return { ...endpointView(row, iso()), deleted: true as const };
    },

    /** A new secret; the old one keeps signing (a second signature) for 24 h. */
    async rotateSecret(merchantId: string, id: string) {
      const secret = newSecret();
      const at = iso();
      const row = await store.writeTransaction(async (trx) => {
        const before = await owned(merchantId, id, trx);
        const old = box.open(before.secret_sealed, secretOwner(id));
        const set = {
          secret_sealed: box.seal(secret, secretOwner(id)),
          previous_secret_sealed: box.seal(old, secretOwner(id, 'previous')),
          previous_secret_expires_at: new Date(opts.now() + SECRET_OVERLAP_MS).toISOString(),
          updated_at: at,
        };
        await trx.updateTable('webhook_endpoints').set(set).where('id', '=', id).execute();
        return { ...before, ...set };
      });
      return endpointView(row, at, { secret });
    },

    /** A `test.ping` event, queued for this endpoint only (a disabled endpoint gets it once enabled). */
    async test(merchantId: string, id: string) {
      const at = iso();
      const result = await store.writeTransaction(async (trx) => {
        const row = await owned(merchantId, id, trx);
        const object = JSON.stringify({
          endpointId: id,
          // Events are stored and streamed as they are: the URL masked, as in lists.
          url: row.url_shown,
          message: 'test event from hostpay: your endpoint receives and verifies webhooks',
        });
        const event = await opts.outbox.append(trx, merchantId, 'test.ping', object, at);
        const [deliveryId] = await insertDeliveries(
          trx,
          [{ endpointId: id, merchantId, eventId: event.id, sequence: event.sequence }],
          at,
        );
        return { eventId: event.id, deliveryId: deliveryId!, endpointId: id };
      });
      opts.wake();
      return result;
    },

    /** Every attempt to this endpoint, newest first. */
    async attempts(merchantId: string | undefined, id: string, req: PageRequest, eventId?: string) {
      await owned(merchantId, id);
      let q = db
        .selectFrom('webhook_attempts')
        .innerJoin('events', 'events.id', 'webhook_attempts.event_id')
        .selectAll('webhook_attempts')
        .select('events.type')
        .where('webhook_attempts.endpoint_id', '=', id);
      if (eventId !== undefined) q = q.where('webhook_attempts.event_id', '=', eventId);
      return page(q, 'webhook_attempts.attempted_at', req, attemptView, 'desc');
    },

    /** Sends one event again: to one endpoint, or to every enabled endpoint that subscribes to it. */
    /** `audit`: an operator asked (the operator API, the console): recorded with the queued deliveries. */
    async redeliver(merchantId: string, eventId: string, endpointId?: string, audit?: AuditContext) {
      const at = iso();
      const queued = await store.writeTransaction(async (trx) => {
        const event = await trx
          .selectFrom('events')
          .select(['id', 'type', 'sequence'])
          .where('id', '=', eventId)
          .where('merchant_id', '=', merchantId)
          .executeTakeFirst();
        if (event === undefined) throw new HostpayError('NOT_FOUND', `event ${eventId} does not exist`);
        let targets: string[];
        if (endpointId !== undefined) targets = [(await owned(merchantId, endpointId, trx)).id];
        else {
          const all = await trx
            .selectFrom('webhook_endpoints')
            .select(['id', 'enabled_events'])
            .where('merchant_id', '=', merchantId)
            .where('disabled', '=', 0)
            .execute();
          targets = all.filter((e) => subscribed(e.enabled_events, event.type)).map((e) => e.id);
        }
        const ids = await insertDeliveries(
          trx,
          targets.map((t) => ({ endpointId: t, merchantId, eventId, sequence: Number(event.sequence) })),
          at,
        );
        const deliveries = targets.map((t, i) => ({ endpointId: t, deliveryId: ids[i]! }));
        if (audit !== undefined) {
          await recordAudit(trx, audit, {
            action: 'webhook.redeliver',
            objectType: 'webhook_endpoint',
            objectId: endpointId ?? merchantId,
            before: null,
            after: { merchantId, eventId, deliveries },
          });
        }
        return deliveries;
      });
      opts.wake();
      return { eventId, deliveries: queued };
    },

    /** Queues every event since `since` (that the endpoint subscribes to) again, in sequence order. */
    async replay(merchantId: string, id: string, since: string) {
      const from = isoTime(since);
      if (from === null)
        throw new HostpayError('INVALID_BODY', `since must be ${ISO_TIME_HELP}`, { parameter: 'since' });
      const at = iso();
      const queued = await store.writeTransaction(async (trx) => {
        const endpoint = await owned(merchantId, id, trx);
        const events = await trx
          .selectFrom('events')
          .select(['id', 'type', 'sequence'])
          .where('merchant_id', '=', merchantId)
          .where('created_at', '>=', from)
          .where('type', '!=', 'test.ping')
          .orderBy('sequence')
          .execute();
        const pending = new Set(
          (
            await trx
              .selectFrom('webhook_deliveries')
              .select('event_id')
              .where('endpoint_id', '=', id)
              .where('status', '=', 'pending')
              .execute()
          ).map((r) => r.event_id),
        );
        const wanted = events.filter((e) => subscribed(endpoint.enabled_events, e.type) && !pending.has(e.id));
        await insertDeliveries(
          trx,
          wanted.map((e) => ({ endpointId: id, merchantId, eventId: e.id, sequence: Number(e.sequence) })),
          at,
        );
        return wanted.length;
      });
      opts.wake();
      return { endpointId: id, since: from, queued };
    },
  };
}

export type WebhookService = ReturnType<typeof webhookService>;
