import { defineFeature } from '../../feature-kit/feature.js';
import { tokenRoutes } from './routes.js';
import { loadTokenSigningKey } from './signing-key.js';
import { tokensMigrations } from './tables.js';

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** The key bearer tokens are signed and verified with, the same on every instance over one store. */
    tokenKey: Buffer;
  }
}

/** POST /api/v1/auth/token, and the key its tokens are signed with. */
export const tokensFeature = defineFeature({
  name: 'tokens',
  migrations: tokensMigrations,
  needs: [],
  provides: ['tokenKey'],
  load: async ({ store, box }) => ({ tokenKey: await loadTokenSigningKey(store, box) }),
  merchantRoutes: [tokenRoutes],
  merchantServices: ({ tokenKey }) => ({ tokenSigningKey: tokenKey }),
});
