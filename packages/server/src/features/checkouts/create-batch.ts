import { CompiledQuery } from 'kysely';
import { newId } from '../../store/ids.js';
import { pgGroupCommit } from '../../store/pg-group-commit.js';
import type { Db, Store } from '../../store/store.js';
import { indexBlocks, type IndexBlocks } from '../addresses/index-blocks.js';
import { CHANNEL, EVENTS_PREFIX } from '../events/wakeup.js';
import { optionColumns, type BuiltCheckout } from './create.js';

/**
 * PostgreSQL: the checkout creates of one turn of the event loop written by ONE statement, which
 * is their whole transaction (store/pg-group-commit.ts): the checkouts, their options, deposit
 * addresses and first timeline rows, then — last, so the merchant's counter row is locked only for
 * the end of one statement and its commit — the per-merchant event sequences, taken once per
 * merchant per batch, the `checkout.created` events numbered from them in the order the creates
 * arrived, the webhook deliveries they owe, and the wake-up (`pg_notify`, delivered at commit).
 *
 * Before this, a create was ~11 round trips in two transactions, and the event sequence row stayed
 * locked from its update through every later round trip and the COMMIT's WAL flush: the creates of
 * a merchant waited on each other (docs/benchmarks.md, "Checkout create on PostgreSQL").
 *
 * What each part guarantees, as appendEvent / fanOut / announceEvents do for one event:
 * - sequences: `insert … on conflict do update` adds the batch's count to the merchant's counter
 *   (creating it for a first event), locking the row until commit, so the numbers are gap-free and
 *   increase in commit order; several merchants' rows are taken in merchant-id order, so two
 *   batches cannot deadlock on them;
 * - deliveries: one per enabled endpoint of the merchant subscribed to the type ('[]': all), as
 *   features/webhooks/queue.ts `subscribed` decides; the id is `whd_`, the event id's time and
 *   counter (so deliveries sort as their events), and 40 bits of md5(event id, endpoint id);
 * - wake-ups: the payloads of features/events/wakeup.ts ('e:<merchant>' per merchant, '' when
 *   deliveries were queued), on the schema's channel.
 */
const STATEMENT = `with
  c as (insert into checkouts select * from json_populate_recordset(null::checkouts, $1::json)),
  o as (insert into checkout_options select * from json_populate_recordset(null::checkout_options, $2::json)),
  a as (insert into deposit_addresses select * from json_populate_recordset(null::deposit_addresses, $3::json)),
  t as (insert into checkout_timeline select * from json_populate_recordset(null::checkout_timeline, $4::json)),
  s as (
    insert into event_sequences (merchant_id, last_sequence)
    select merchant_id, n from json_to_recordset($5::json) as x(merchant_id text, n integer) order by merchant_id
    on conflict (merchant_id) do update set last_sequence = event_sequences.last_sequence + excluded.last_sequence
    returning merchant_id, last_sequence
  ),
  e as (
    insert into events (id, merchant_id, sequence, type, data, created_at)
    select x.id, x.merchant_id, s.last_sequence - x.n + x.ord, x.type, x.data::text, x.created_at
    from json_to_recordset($6::json)
      as x(id text, merchant_id text, ord integer, n integer, type text, data json, created_at timestamptz)
    join s on s.merchant_id = x.merchant_id
    returning id, merchant_id, sequence, type, created_at
  ),
  d as (
    insert into webhook_deliveries (id, endpoint_id, merchant_id, event_id, sequence, status, attempts,
      next_attempt_at, last_error, created_at, updated_at)
    select 'whd_' || substr(e.id, 5, 12) || substr(md5(e.id || '/' || w.id), 1, 10), w.id, e.merchant_id, e.id,
      e.sequence, 'pending', 0, e.created_at, null, e.created_at, e.created_at
    from e join webhook_endpoints w on w.merchant_id = e.merchant_id and w.disabled = 0
    where w.enabled_events = '[]' or w.enabled_events::jsonb ? e.type
    returning 1
  )
select count(pg_notify(${CHANNEL}, p)) as woken
from (select distinct '${EVENTS_PREFIX}' || merchant_id as p from e union select '' from d) as payloads`;

/** One batch's rows as the statement's JSON parameters. */
function parameters(items: { merchantId: string; built: BuiltCheckout }[]): string[] {
  const checkouts = [];
  const options = [];
  const addresses = [];
  const timeline = [];
  const counts = new Map<string, number>();
  const events: { id: string; merchantId: string; ord: number; built: BuiltCheckout }[] = [];
  for (const { merchantId, built } of items) {
    const { checkout } = built;
    checkouts.push(checkout.row);
    for (const o of checkout.options) options.push(optionColumns(o));
    addresses.push(...built.addresses);
    timeline.push(...checkout.timeline);
    const ord = (counts.get(merchantId) ?? 0) + 1;
    counts.set(merchantId, ord);
    events.push({ id: newId('evt', 16), merchantId, ord, built });
  }
  const sequences = [...counts].map(([merchant_id, n]) => ({ merchant_id, n }));
  // The event's data goes in as a JSON value, not as a string holding JSON: the answer's text is
  // written once, not escaped again, and PostgreSQL reproduces a `json` value exactly as given
  // (json_to_recordset; `::text` is then that text, byte for byte, as the answer).
  const eventsJson = events.map(
    (e) =>
      `{"id":"${e.id}","merchant_id":${JSON.stringify(e.merchantId)},"ord":${e.ord},"n":${counts.get(e.merchantId)!},"type":"checkout.created","data":{"object":${e.built.json}},"created_at":"${e.built.at}"}`,
  );
  return [
    ...[checkouts, options, addresses, timeline, sequences].map((rows) => JSON.stringify(rows)),
    `[${eventsJson.join(',')}]`,
  ];
}

const write = async (db: Db, items: { merchantId: string; built: BuiltCheckout }[]): Promise<void> => {
  await db.executeQuery(CompiledQuery.raw(STATEMENT, parameters(items)));
};

// STATEMENT around its parameters, which appear once each, in order, as `$n::json`.
const PIECES = STATEMENT.split(/\$\d::json/);
if (
  PIECES.length !== 7 ||
  !/^with\s+c as .*\$1::json.*\$2::json.*\$3::json.*\$4::json.*\$5::json.*\$6::json/s.test(STATEMENT)
)
  throw new Error('create-batch: the statement must name $1 … $6 once each, in order');

/**
 * STATEMENT with its parameters written in as dollar-quoted literals, for pg-group-commit.ts to
 * send with its BEGIN in one message: a dollar-quoted literal is taken as it is, so the JSON texts
 * go in unchanged, under a tag none of them contains (merchant text could hold any other).
 */
function inlined(items: { merchantId: string; built: BuiltCheckout }[]): string {
  const values = parameters(items);
  let tag = '$j$';
  for (let i = 0; values.some((v) => v.includes(tag)); i++) tag = `$j${i}$`;
  let text = PIECES[0]!;
  for (const [i, v] of values.entries()) text += `${tag}${v}${tag}::json${PIECES[i + 1]!}`;
  return text;
}

export interface CreateBatch {
  indices: IndexBlocks;
  write(built: BuiltCheckout): Promise<void>;
}

/** The create batch of a PostgreSQL store, for one merchant-facing service: undefined on SQLite (group-commit.ts serves it). */
export function createBatch(store: Store): ((merchantId: string) => CreateBatch) | undefined {
  if (store.dialect !== 'postgres') return undefined;
  const indices = indexBlocks(store.db);
  const commit = pgGroupCommit(store.db, write, { inline: inlined });
  return (merchantId) => ({ indices, write: (built) => commit({ merchantId, built }) });
}
