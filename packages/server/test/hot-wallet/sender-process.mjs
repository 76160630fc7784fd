// The hot wallet sender in a process of its own, over the store of a test's server (its data
// directory, and its PostgreSQL schema when HOTWALLET_DATABASE_URL is set): one round on ETH, the payouts port a recorder handing out the one payout of
// HOTWALLET_JOB. With HOTWALLET_KILL_AFTER_SIGN=1 the process kills itself with SIGKILL right after
// the signed transaction is committed and before it is broadcast. Runs the compiled dist/.
import { writeFileSync } from 'node:fs';
import { createServices } from '../../dist/services.js';

const env = process.env;
const job = JSON.parse(env.HOTWALLET_JOB);
const calls = [];
let sent = false;
const port = {
  approved: async () => (sent ? [] : [job]),
  // The one payout of this process stays approved until it is marked sent.
  claimForSigning: async () => !sent,
  markSent: async (id, p) => {
    sent = true;
    calls.push(['sent', id, p.txHash]);
  },
  markConfirmations: async (id, n) => calls.push(['confirmations', id, n]),
  markCompleted: async (id, p) => calls.push(['completed', id, p.networkFee]),
  markFailed: async (id, reason) => calls.push(['failed', id, reason]),
  markReorged: async (id) => calls.push(['reorged', id]),
  holdWithReason: async (id, reason) => calls.push(['held', id, reason]),
};
const offset = Number(env.HOTWALLET_CLOCK_OFFSET_MS ?? 0);
const services = await createServices(
  {
    dataDir: env.HOTWALLET_DATA_DIR,
    databaseUrl: env.HOTWALLET_DATABASE_URL ?? '',
    databaseSchema: env.HOTWALLET_DATABASE_SCHEMA ?? '',
    masterKey: '',
    sandbox: true,
  },
  {
    now: () => Date.now() + offset,
    hotWallet: {
      port,
      sender: env.HOTWALLET_KILL_AFTER_SIGN === '1' ? { afterSign: () => process.kill(process.pid, 'SIGKILL') } : {},
    },
  },
);
const round = await services.hotWallet.sender.round('ETH');
writeFileSync(env.HOTWALLET_OUT, JSON.stringify({ round, calls }));
await services.close();
