import { CompiledQuery } from 'kysely';
import { createHash } from 'node:crypto';
import { pgGroupCommit } from '../../store/pg-group-commit.js';
import type { Db, Store } from '../../store/store.js';
import { indexBlocks } from '../addresses/index-blocks.js';
import { eventBatchParameters, eventBatchSql, type BatchEvent } from '../events/batch.js';
import type { Outbox } from '../events/outbox.js';
import { optionColumns } from './create.js';
import type { BuiltCheckout, CreateBatch } from './create-types.js';

/**
 * PostgreSQL: the checkout creates of one turn of the event loop written by ONE statement, which
 * is their whole transaction (store/pg-group-commit.ts): the checkouts, their options, deposit
 * addresses and first timeline rows, then — last, so the merchant's counter row is locked only for
 * the end of one statement and its commit — the `checkout.created` events in the order the
 * creates arrived, with what they owe (webhook deliveries) and their wake-ups. The events part is
 * the events feature's (features/events/batch.ts): the one writer of events, counters and, through
 * its outbox subscribers, deliveries, whether one event is appended or a batch.
 *
 * One statement, because a create made of separate round trips keeps the merchant's counter row
 * locked through all of them and the commit's WAL flush, so a merchant's creates queue behind each
 * other (docs/benchmarks.md, "Why the store is shaped this way").
 */
function statementText(outbox: Outbox): string {
  const events = eventBatchSql('$5::json', '$6::json', outbox.subscribers());
  return `with
  c as (insert into checkouts select * from json_populate_recordset(null::checkouts, $1::json)),
  o as (insert into checkout_options select * from json_populate_recordset(null::checkout_options, $2::json)),
  a as (insert into deposit_addresses select * from json_populate_recordset(null::deposit_addresses, $3::json)),
  t as (insert into checkout_timeline select * from json_populate_recordset(null::checkout_timeline, $4::json)),
  ${events.ctes}
${events.select}`;
}

type Item = { merchantId: string; built: BuiltCheckout };

/** One batch's rows as the statement's JSON parameters. */
function parameters(items: Item[]): string[] {
  const checkouts = [];
  const options = [];
  const addresses = [];
  const timeline = [];
  const events: BatchEvent[] = [];
  for (const { merchantId, built } of items) {
    const { checkout } = built;
    checkouts.push(checkout.row);
    for (const o of checkout.options) options.push(optionColumns(o));
    addresses.push(...built.addresses);
    timeline.push(...checkout.timeline);
    events.push({
      merchantId,
      type: 'checkout.created',
      objectJson: built.json,
      at: built.at,
      checkoutId: checkout.row.id,
    });
  }
  return [
    ...[checkouts, options, addresses, timeline].map((rows) => JSON.stringify(rows)),
    ...eventBatchParameters(events),
  ];
}

/**
 * The statement, run with its parameters (`write`), or with them written in as dollar-quoted
 * literals (`inlined`; `prepared.execute` for the statement prepared per connection, which
 * PostgreSQL then does not plan again for every batch), for pg-group-commit.ts to send with its
 * BEGIN in one message: a dollar-quoted literal is taken as it is, so the JSON texts go in
 * unchanged, under a tag none of them contains (merchant text could hold any other).
 */
function batchStatement(outbox: Outbox) {
  const text = statementText(outbox);
  // The text around its parameters, which appear once each, in order, as `$n::json`.
  const pieces = text.split(/\$\d::json/);
  if (
    pieces.length !== 7 ||
    !/^with\s+c as .*\$1::json.*\$2::json.*\$3::json.*\$4::json.*\$5::json.*\$6::json/s.test(text)
  )
    throw new Error('create-batch: the statement must name $1 … $6 once each, in order');
  // Named by its text: a connection never holds two different statements under one name.
  const name = `hostpay_create_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
  return {
    write: async (db: Db, items: Item[]): Promise<void> => {
      await db.executeQuery(CompiledQuery.raw(text, parameters(items)));
    },
    inlined(items: Item[]): string {
      let out = pieces[0]!;
      for (const [i, v] of quotedParameters(items).entries()) out += `${v}::json${pieces[i + 1]!}`;
      return out;
    },
    /** The statement prepared on a connection (its name from its text), and its EXECUTE with a batch's values written in. */
    prepared: {
      prepare: `prepare ${name} (json, json, json, json, json, json) as ${text}`,
      execute: (items: Item[]): string => `execute ${name} (${quotedParameters(items).join(', ')})`,
    },
  };
}

/** A batch's parameters as dollar-quoted literals, under a tag none of them contains. */
function quotedParameters(items: Item[]): string[] {
  const values = parameters(items);
  let tag = '$j$';
  for (let i = 0; values.some((v) => v.includes(tag)); i++) tag = `$j${i}$`;
  return values.map((v) => `${tag}${v}${tag}`);
}

/** The create batch of a PostgreSQL store, for one merchant-facing service: undefined on SQLite (group-commit.ts serves it). */
export function createBatch(store: Store, outbox: Outbox): ((merchantId: string) => CreateBatch) | undefined {
  if (store.dialect !== 'postgres') return undefined;
  const indices = indexBlocks(store.db);
  // Made on the first batch: the outbox's subscribers are known once every feature is made.
  let statement: ReturnType<typeof batchStatement> | undefined;
  const made = () => (statement ??= batchStatement(outbox));
  const commit = pgGroupCommit(store.db, (db, items: Item[]) => made().write(db, items), {
    inline: (items: Item[]) => made().inlined(items),
    prepared: {
      get prepare() {
        return made().prepared.prepare;
      },
      execute: (items: Item[]) => made().prepared.execute(items),
    },
  });
  return (merchantId) => ({ indices, write: (built) => commit({ merchantId, built }) });
}
