import { defineFeature } from '../../feature-kit/feature.js';
import { addressesMigrations } from './tables.js';

/**
 * Deposit addresses: derivation and allocation, called directly by checkouts. Registered for its
 * table (deposit_addresses), which it declares like any feature; it makes and serves nothing itself.
 */
export const addressesFeature = defineFeature({
  name: 'addresses',
  migrations: addressesMigrations,
  needs: [],
  provides: [],
});
