// The ceiling of checkout create on this machine (issue 44, bench/ceiling.ts): bare node:http
// writing the same rows, columns and indexes as hostpay's create into the same schema (the
// account key's counter, the checkout, its deposit address, option and first timeline row, the
// merchant's event counter, the event, the endpoint lookup and the deliveries), parsing the same
// body and answering a checkout view of the same fields, batched the way a skilled engineer would:
// - SQLite: every create of one turn of the event loop in one BEGIN IMMEDIATE … COMMIT of
//   statements prepared once and run synchronously; WAL, synchronous=NORMAL, checkpoints on a
//   worker thread (PASSIVE passes, automatic checkpoint only as a far backstop);
// - PostgreSQL: every create of one turn in ONE prepared multi-row statement (json parameters),
//   two batches in flight on two connections.
// No authentication, pricing or address derivation: a generous ceiling.
//
//   node bench/ceiling-server.mjs CONFIG.json   (written by bench/ceiling.ts; prints "listening PORT")
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Worker } from 'node:worker_threads';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const t = config.templates;

let counter = 0;
const id = (prefix, bytes = 10) => `${prefix}_${randomBytes(bytes).toString('hex')}`;
const checkoutId = (nowMs) =>
  `chk_${nowMs.toString(36).padStart(9, '0')}${randomBytes(20).toString('hex').slice(0, 31)}`;
// Derivation indices far above hostpay's (both write the same key's rows; (key, index) is unique).
let nextIndex = 1_000_000_000 + Math.floor(Math.random() * 1_000_000_000);

/** One create's rows and answer, from the body (the templates are hostpay's own rows of a probe create). */
function build(body) {
  const req = JSON.parse(body);
  if (typeof req.orderId !== 'string' || typeof req.amount !== 'string') throw new Error('bad body');
  const nowMs = Date.now();
  const at = new Date(nowMs).toISOString();
  const cid = checkoutId(nowMs);
  const optionId = id('opt');
  const index = nextIndex++;
  const address = `${t.address.address.slice(0, 8)}${(++counter).toString(36).padStart(26, '0')}`;
  const checkout = {
    ...t.checkout,
    id: cid,
    order_id: req.orderId,
    amount: req.amount,
    currency: req.currency,
    created_at: at,
    updated_at: at,
    expires_at: new Date(nowMs + 900_000).toISOString(),
  };
  const option = { ...t.option, id: optionId, checkout_id: cid, address, rate_at: at };
  const addressRow = {
    ...t.address,
    id: id('adr'),
    checkout_id: cid,
    option_id: optionId,
    derivation_index: index,
    address,
    created_at: at,
  };
  const timeline = { checkout_id: cid, seq: 0, status: 'open', reason: null, at };
  const view = {
    ...t.view,
    id: cid,
    orderId: req.orderId,
    createdAt: at,
    paymentOptions: t.view.paymentOptions?.map((o) => ({ ...o, address })),
  };
  const json = JSON.stringify(view);
  return { checkout, option, addressRow, timeline, json, at };
}

const pending = [];
let scheduled = false;
let flushTurn;

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let item;
    try {
      item = build(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(400).end();
      return;
    }
    pending.push({ item, res });
    if (!scheduled) {
      scheduled = true;
      setImmediate(flushTurn);
    }
  });
});

const answer = (res, json) => {
  res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
};
const fail = (res, err) => {
  console.error(err);
  res.writeHead(500).end();
};

if (config.store === 'sqlite') {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(config.file, { fileMustExist: true });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('wal_autocheckpoint = 10000');
  const insert = (table, row) => {
    const cols = Object.keys(row);
    return db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`);
  };
  const bumpKey = db.prepare('UPDATE account_keys SET next_index = next_index + 1 WHERE id = ? RETURNING next_index');
  const insertCheckout = insert('checkouts', t.checkout);
  const insertAddress = insert('deposit_addresses', t.address);
  const insertOption = insert('checkout_options', t.option);
  const insertTimeline = insert('checkout_timeline', { checkout_id: '', seq: 0, status: '', reason: null, at: '' });
  const bumpSequence = db.prepare(
    'UPDATE event_sequences SET last_sequence = last_sequence + 1 WHERE merchant_id = ? RETURNING last_sequence',
  );
  const insertEvent = db.prepare(
    'INSERT INTO events (id, merchant_id, sequence, type, data, created_at, checkout_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const endpoints = db.prepare(
    'SELECT id, enabled_events FROM webhook_endpoints WHERE merchant_id = ? AND disabled = 0',
  );
  const insertDelivery = db.prepare(
    `INSERT INTO webhook_deliveries (id, endpoint_id, merchant_id, event_id, sequence, status, attempts, next_attempt_at,
      last_error, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, null, ?, ?)`,
  );
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const merchant = t.checkout.merchant_id;
  const write = ({ checkout, option, addressRow, timeline, json, at }) => {
    bumpKey.get(addressRow.account_key_id);
    insertCheckout.run(checkout);
    insertAddress.run(addressRow);
    insertOption.run(option);
    insertTimeline.run(timeline);
    const sequence = bumpSequence.get(merchant).last_sequence;
    const eventId = id('evt', 16);
    insertEvent.run(eventId, merchant, sequence, 'checkout.created', `{"object":${json}}`, at, checkout.id);
    for (const e of endpoints.all(merchant)) {
      const list = JSON.parse(e.enabled_events);
      if (list.length === 0 || list.includes('checkout.created'))
        insertDelivery.run(id('whd'), e.id, merchant, eventId, sequence, at, at, at);
    }
  };
  flushTurn = () => {
    scheduled = false;
    const batch = pending.splice(0);
    try {
      begin.run();
      for (const p of batch) write(p.item);
      commit.run();
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK');
      for (const p of batch) fail(p.res, err);
      return;
    }
    for (const p of batch) answer(p.res, p.item.json);
  };
  // Checkpoints on a worker thread with its own connection.
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');
const db = new Database(workerData, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const version = db.prepare('PRAGMA data_version').pluck();
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let seen = -1;
setInterval(() => { const v = version.get(); if (v !== seen) { seen = v; checkpoint.run(); } }, 100);`,
    { eval: true, workerData: config.file },
  );
  worker.unref();
} else {
  const { default: pg } = await import('pg');
  const clients = [];
  for (let i = 0; i < 2; i++) {
    const c = new pg.Client({ connectionString: config.url });
    await c.connect();
    await c.query(`set search_path to "${config.schema}"`);
    clients.push(c);
  }
  const free = [...clients];
  const name = 'ceiling_create';
  const merchant = t.checkout.merchant_id;
  const keyId = t.address.account_key_id;
  const send = (client, batch) => {
    const events = batch.map(
      ({ item }, i) =>
        `{"id":"${id('evt', 16)}","merchant_id":${JSON.stringify(merchant)},"ord":${i + 1},"n":${batch.length},"type":"checkout.created","data":{"object":${item.json}},"created_at":"${item.at}","checkout_id":"${item.checkout.id}"}`,
    );
    const values = [
      JSON.stringify(batch.map((p) => p.item.checkout)),
      JSON.stringify(batch.map((p) => p.item.option)),
      JSON.stringify(batch.map((p) => p.item.addressRow)),
      JSON.stringify(batch.map((p) => p.item.timeline)),
      JSON.stringify([{ merchant_id: merchant, n: batch.length }]),
      `[${events.join(',')}]`,
      batch.length,
      keyId,
    ];
    client.query({ name, text: config.statement, values }).then(
      () => {
        for (const p of batch) answer(p.res, p.item.json);
        done(client);
      },
      (err) => {
        for (const p of batch) fail(p.res, err);
        done(client);
      },
    );
  };
  const done = (client) => {
    free.push(client);
    if (pending.length > 0) send(free.pop(), pending.splice(0));
  };
  flushTurn = () => {
    scheduled = false;
    // Two batches in flight: the rest wait for a connection and go as one batch when it frees.
    if (free.length > 0 && pending.length > 0) send(free.pop(), pending.splice(0));
  };
}

server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
