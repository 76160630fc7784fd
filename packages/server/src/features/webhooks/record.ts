import { CompiledQuery } from 'kysely';
import { newId } from '../../store/ids.js';
import { retrySerializationFailures } from '../../store/retry.js';
import type { WebhookDeliveryTable, WebhookEndpointTable } from './tables.js';
import type { Db, Store } from '../../store/store.js';
import type { Outbox } from '../events/outbox.js';
import type { AttemptResult } from './sender.js';
import { DISABLE_AFTER_MS, retryDelayMs } from './schedule.js';
import { endpointView } from './view.js';

export interface AttemptRecord {
  endpoint: WebhookEndpointTable;
  delivery: WebhookDeliveryTable;
  result: AttemptResult;
  startedMs: number;
  now: number;
}

const isSuccess = (r: AttemptResult) => r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;

/**
 * Writes attempts and their consequences in one transaction: the log row, the delivery (done,
 * retry at the next step of the schedule, or failed), and the endpoint's health (last success,
 * failing since). 410 Gone, or failing for 5 days, disables the endpoint and tells the merchant
 * with a `webhook_endpoint.disabled` event (queued for their other endpoints).
 */
export async function recordAttempts(
  store: Store,
  outbox: Outbox,
  recs: AttemptRecord[],
): Promise<'ok' | 'failed' | 'disabled'> {
  if (recs.length === 0) return 'ok';
  if (recs.every((r) => isSuccess(r.result))) return recordSuccesses(store, recs);
  return store.writeTransaction(async (trx) => {
    let last: 'ok' | 'failed' | 'disabled' = 'ok';
    for (const rec of recs) last = await recordOne(trx, outbox, rec);
    return last;
  });
}

/**
 * Successes only (the common case), the same rows on both stores: on SQLite three statements in
 * the group commit; on PostgreSQL ONE statement, a transaction by itself, where BEGIN, three
 * statements and COMMIT were five round trips per ten deliveries (recording was what kept
 * PostgreSQL's deliveries behind SQLite's, issue 44). Losing the process mid-statement loses no
 * delivery: an unrecorded success is sent again with the same webhook-id.
 */
async function recordSuccesses(store: Store, recs: AttemptRecord[]): Promise<'ok'> {
  const at = new Date(Math.max(...recs.map((r) => r.now))).toISOString();
  const attempts = recs.map((rec) => attemptRow(rec, true));
  const endpointIds = [...new Set(recs.map((r) => r.endpoint.id))];
  if (store.dialect === 'postgres') {
    const deliveries = recs.map((r) => ({ id: r.delivery.id, attempts: r.delivery.attempts + 1 }));
    const statement = CompiledQuery.raw(SUCCESSES_SQL, [
      JSON.stringify(attempts),
      at,
      JSON.stringify(deliveries),
      endpointIds,
    ]);
    // As writeTransaction does: a statement that lost a deadlock is run again (retry.ts).
    await retrySerializationFailures(() => store.db.executeQuery(statement));
    return 'ok';
  }
  return store.writeTransaction(async (trx): Promise<'ok'> => {
    await trx.insertInto('webhook_attempts').values(attempts).execute();
    for (const count of new Set(recs.map((r) => r.delivery.attempts + 1))) {
      const ids = recs.filter((r) => r.delivery.attempts + 1 === count).map((r) => r.delivery.id);
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'succeeded', attempts: count, last_error: null, updated_at: at })
        .where('id', 'in', ids)
        .execute();
    }
    await trx
      .updateTable('webhook_endpoints')
      .set({ last_success_at: at, failing_since: null })
      .where('id', 'in', endpointIds)
      .execute();
    return 'ok';
  });
}

/** PostgreSQL's recordSuccesses: $1 the attempt rows, $2 the time, $3 each delivery's id and attempt count, $4 the endpoints. */
const SUCCESSES_SQL = `with
  logged as (insert into webhook_attempts select * from json_populate_recordset(null::webhook_attempts, $1::json)),
  sent as (update webhook_deliveries d set status = 'succeeded', attempts = x.attempts, last_error = null, updated_at = $2::timestamptz
    from json_to_recordset($3::json) as x(id text, attempts integer) where d.id = x.id)
update webhook_endpoints set last_success_at = $2::timestamptz, failing_since = null where id = any($4::text[])`;

const attemptRow = (rec: AttemptRecord, ok: boolean) => ({
  id: newId('wha', 10),
  delivery_id: rec.delivery.id,
  endpoint_id: rec.endpoint.id,
  event_id: rec.delivery.event_id,
  attempted_at: new Date(rec.startedMs).toISOString(),
  status_code: rec.result.statusCode,
  error: rec.result.error,
  latency_ms: rec.result.latencyMs,
  response_body: rec.result.responseBody,
  succeeded: ok ? 1 : 0,
});

/** One attempt, success or failure, with its consequences. */
async function recordOne(trx: Db, outbox: Outbox, rec: AttemptRecord): Promise<'ok' | 'failed' | 'disabled'> {
  const { endpoint, delivery, result } = rec;
  const at = new Date(rec.now).toISOString();
  const ok = isSuccess(result);
  await trx.insertInto('webhook_attempts').values(attemptRow(rec, ok)).execute();
  const attempts = delivery.attempts + 1;
  if (ok) {
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'succeeded', attempts, last_error: null, updated_at: at })
      .where('id', '=', delivery.id)
      .execute();
    await trx
      .updateTable('webhook_endpoints')
      .set({ last_success_at: at, failing_since: null })
      .where('id', '=', endpoint.id)
      .execute();
    return 'ok';
  }
  const delay = retryDelayMs(attempts);
  const error = result.error ?? `HTTP ${result.statusCode}`;
  await trx
    .updateTable('webhook_deliveries')
    .set(
      delay === null
        ? { status: 'failed', attempts, last_error: error, updated_at: at }
        : { attempts, last_error: error, next_attempt_at: new Date(rec.now + delay).toISOString(), updated_at: at },
    )
    .where('id', '=', delivery.id)
    .execute();
  const current = await trx
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', endpoint.id)
    .executeTakeFirst();
  if (current === undefined) return 'failed';
  const failingSince = current.failing_since ?? at;
  const reason =
    result.statusCode === 410 ? 'gone' : rec.now - Date.parse(failingSince) >= DISABLE_AFTER_MS ? 'failing' : null;
  if (reason === null || current.disabled === 1) {
    await trx
      .updateTable('webhook_endpoints')
      .set({ failing_since: failingSince })
      .where('id', '=', endpoint.id)
      .execute();
    return 'failed';
  }
  await disableEndpoint(trx, outbox, { ...current, failing_since: failingSince }, reason, at);
  return 'disabled';
}

export const attemptSucceeded = isSuccess;

/**
 * Successes recorded in one transaction by default (the worker's `recordEvery`). 1 records each
 * success before the next send; docs/benchmarks.md compares the two.
 */
export const RECORD_EVERY = 10;

/**
 * Records one endpoint's attempts as its loop sends: successes RECORD_EVERY at a time in the
 * background while the next ones are sent (one recording in flight at most, in order), a failure
 * at once after them, since it may disable the endpoint. `settle` waits for all of it.
 */
export class AttemptRecorder {
  readonly #store: Store;
  readonly #outbox: Outbox;
  #done: AttemptRecord[] = [];
  #recording: Promise<void> = Promise.resolve();
  #failed: Error | undefined;
  readonly #every: number;

  constructor(store: Store, outbox: Outbox, every = RECORD_EVERY) {
    this.#store = store;
    this.#outbox = outbox;
    this.#every = every;
  }

  /** Throws the background recording's failure, if any: checked before each send, so none is wasted after it. */
  check(): void {
    if (this.#failed) throw this.#failed;
  }

  success(rec: AttemptRecord): void {
    this.check();
    this.#done.push(rec);
    if (this.#done.length >= this.#every) this.#later(this.#done.splice(0));
  }

  async failure(rec: AttemptRecord): Promise<'ok' | 'failed' | 'disabled'> {
    await this.#wait();
    return recordAttempts(this.#store, this.#outbox, [...this.#done.splice(0), rec]);
  }

  async settle(): Promise<void> {
    this.#later(this.#done.splice(0));
    await this.#wait();
  }

  #later(recs: AttemptRecord[]): void {
    if (recs.length === 0) return;
    this.#recording = this.#recording
      .then(() => recordAttempts(this.#store, this.#outbox, recs))
      .then(
        () => undefined,
        (err: Error) => {
          this.#failed ??= err;
        },
      );
  }

  async #wait(): Promise<void> {
    await this.#recording;
    if (this.#failed) throw this.#failed;
  }
}

async function disableEndpoint(
  trx: Db,
  outbox: Outbox,
  endpoint: WebhookEndpointTable,
  reason: 'gone' | 'failing',
  at: string,
): Promise<void> {
  const set = {
    disabled: 1,
    disabled_reason: reason,
    disabled_at: at,
    failing_since: endpoint.failing_since,
    updated_at: at,
  };
  await trx.updateTable('webhook_endpoints').set(set).where('id', '=', endpoint.id).execute();
  // Written after the update, so the fan-out does not queue it for the endpoint it disables.
  await outbox.append(
    trx,
    endpoint.merchant_id,
    'webhook_endpoint.disabled',
    JSON.stringify(endpointView({ ...endpoint, ...set }, at)),
    at,
  );
}
