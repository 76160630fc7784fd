import type { AuditContext } from '../../admin/deps.js';
import { defineFeature } from '../../feature-kit/feature.js';
import { sealPlaintextColumns } from './seal-plaintext.js';
import { rotateMasterKey } from './service.js';
import { masterKeyMigrations } from './tables.js';

/** Re-sealing every secret under a new master key (the CLI's `hostpay master-key rotate`). */
export const masterKeyFeature = defineFeature({
  name: 'master-key',
  migrations: masterKeyMigrations,
  needs: ['store', 'box'],
  provides: [],
  // Rows an earlier release wrote in plain text (migration 011), sealed before anything reads them.
  prepare: ({ store, box }) => sealPlaintextColumns(store, box),
  admin: ({ store, box }) => ({ rotateMasterKey: (ctx: AuditContext) => rotateMasterKey(store, box, ctx) }),
});
