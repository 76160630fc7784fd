// The real services in a process of their own, over the store of a test's server (its data
// directory, and its PostgreSQL schema when HOTWALLET_DATABASE_URL is set): the payouts feature's own sender port, one hot wallet sender round on ETH. With
// HOTWALLET_KILL_AFTER_SIGN=1 the process kills itself with SIGKILL right after the signed
// transaction is committed and before it is broadcast (a new payout's, or a fee bump's: the first
// one it signs). HOTWALLET_FEE_BUMP_AFTER_SECONDS: the bump delay (default 180). Runs the compiled dist/.
import { writeFileSync } from 'node:fs';
import { createServices } from '../../dist/services.js';

const env = process.env;
const offset = Number(env.HOTWALLET_CLOCK_OFFSET_MS ?? 0);
const services = await createServices(
  {
    dataDir: env.HOTWALLET_DATA_DIR,
    databaseUrl: env.HOTWALLET_DATABASE_URL ?? '',
    databaseSchema: env.HOTWALLET_DATABASE_SCHEMA ?? '',
    masterKey: '',
    sandbox: true,
    ...(env.HOTWALLET_FEE_BUMP_AFTER_SECONDS
      ? { hotWalletFeeBumpAfterSeconds: Number(env.HOTWALLET_FEE_BUMP_AFTER_SECONDS) }
      : {}),
  },
  {
    now: () => Date.now() + offset,
    hotWallet: {
      sender: env.HOTWALLET_KILL_AFTER_SIGN === '1' ? { afterSign: () => process.kill(process.pid, 'SIGKILL') } : {},
    },
  },
);
const round = await services.hotWallet.sender.round('ETH');
writeFileSync(env.HOTWALLET_OUT, JSON.stringify({ round }));
await services.close();
