// The store the integration test runs (packages/medusa/test/medusa-store.test.ts): PostgreSQL,
// Redis for the event bus (the webhook reaches the provider through it, as in production) and
// the session store, no admin UI, and hostpay as a payment provider, configured the way the
// package README tells a shop to. Everything comes from the environment the test sets.
const { defineConfig, Modules } = require('@medusajs/framework/utils');

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set (the integration test sets it)`);
  return value;
};

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: env('DATABASE_URL'),
    redisUrl: env('REDIS_URL'),
    redisPrefix: env('MEDUSA_REDIS_PREFIX'),
    http: {
      storeCors: 'http://127.0.0.1',
      adminCors: 'http://127.0.0.1',
      authCors: 'http://127.0.0.1',
      jwtSecret: env('MEDUSA_JWT_SECRET'),
      cookieSecret: env('MEDUSA_COOKIE_SECRET'),
    },
  },
  admin: { disable: true },
  modules: [
    {
      resolve: '@medusajs/medusa/event-bus-redis',
      key: Modules.EVENT_BUS,
      // BullMQ refuses ':' in a queue name.
      options: { redisUrl: env('REDIS_URL'), queueName: `${env('MEDUSA_REDIS_PREFIX').replace(/:/g, '')}-events` },
    },
    {
      resolve: '@medusajs/medusa/payment',
      options: {
        providers: [
          {
            resolve: '@hostpay/medusa',
            id: 'hostpay',
            options: {
              baseUrl: env('HOSTPAY_URL'),
              apiKey: env('HOSTPAY_API_KEY'),
              apiSecret: env('HOSTPAY_API_SECRET'),
              webhookSecret: env('HOSTPAY_WEBHOOK_SECRET'),
              paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
              successUrl: 'http://127.0.0.1/shop/thanks',
            },
          },
        ],
      },
    },
  ],
});
