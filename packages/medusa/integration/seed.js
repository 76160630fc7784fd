// `medusa exec ./seed.js`: what a shop sets up once, through Medusa's own workflows and modules:
// an admin user, a sales channel with a publishable key, a region in EUR paid with hostpay, and a
// product. Writes the ids the test needs to $SEED_OUT as JSON.
const { writeFileSync } = require('node:fs');
const { Modules } = require('@medusajs/framework/utils');
const {
  createApiKeysWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
} = require('@medusajs/medusa/core-flows');

exports.default = async function seed({ container }) {
  const email = process.env.SEED_ADMIN_EMAIL;
  const password = process.env.SEED_ADMIN_PASSWORD;
  // As `medusa user` does: a user, and an emailpass identity that names it.
  const user = await container.resolve(Modules.USER).createUsers({ email });
  const auth = container.resolve(Modules.AUTH);
  const { authIdentity, error } = await auth.register('emailpass', { body: { email, password } });
  if (error) throw new Error(error);
  await auth.updateAuthIdentities({ id: authIdentity.id, app_metadata: { user_id: user.id } });

  const { result: channels } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: 'Web shop' }] },
  });
  const channel = channels[0];
  const { result: keys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: 'Storefront', type: 'publishable', created_by: user.id }] },
  });
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: keys[0].id, add: [channel.id] } });
  const { result: regions } = await createRegionsWorkflow(container).run({
    input: {
      regions: [
        { name: 'Europe', currency_code: 'eur', countries: ['de', 'fr'], payment_providers: ['pp_hostpay_hostpay'] },
      ],
    },
  });
  const { result: products } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: 'Mug',
          status: 'published',
          options: [{ title: 'Size', values: ['One size'] }],
          variants: [
            {
              title: 'One size',
              options: { Size: 'One size' },
              manage_inventory: false,
              prices: [{ amount: 24.5, currency_code: 'eur' }],
            },
          ],
          sales_channels: [{ id: channel.id }],
        },
      ],
    },
  });
  writeFileSync(
    process.env.SEED_OUT,
    JSON.stringify({
      publishableKey: keys[0].token,
      regionId: regions[0].id,
      variantId: products[0].variants[0].id,
      salesChannelId: channel.id,
    }),
  );
};
