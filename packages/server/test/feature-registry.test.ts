import { CHECKOUT_PATHS } from '@hostpay/protocol';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { INSTANCE_ID_FILE } from '../src/cluster/instance.js';
import { createServer } from '../src/create-server.js';
import { loadConfig } from '../src/config.js';
import { KERNEL_PROVISIONS, type AnyFeature, type ProvisionName } from '../src/feature-kit/feature.js';
import { orderFeatures } from '../src/feature-kit/registry.js';
import { REGISTERED_FEATURES } from '../src/features/index.js';
import { createServices, type Services } from '../src/services.js';
import { SRC } from './structure/import-graph.js';

const without = (name: string) => REGISTERED_FEATURES.filter((f) => f.name !== name);
const fake = (name: string, needs: ProvisionName[], provides: ProvisionName[]): AnyFeature => ({
  name,
  needs,
  provides,
});

describe('the feature registry (features/index.ts)', () => {
  it("every registered feature's needs are met, each by a feature made before it", () => {
    const ordered = orderFeatures(REGISTERED_FEATURES);
    expect(ordered.map((f) => f.name).sort()).toEqual(REGISTERED_FEATURES.map((f) => f.name).sort());
    const available = new Set<ProvisionName>(KERNEL_PROVISIONS);
    for (const feature of ordered) {
      for (const need of feature.needs) expect(available.has(need), `${feature.name} needs ${need}`).toBe(true);
      for (const name of feature.provides) available.add(name);
    }
  });

  it('every feature folder with a feature.ts is registered under its folder name', () => {
    const folders = readdirSync(join(SRC, 'features'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(SRC, 'features', d.name, 'feature.ts')))
      .map((d) => d.name)
      .sort();
    expect(REGISTERED_FEATURES.map((f) => f.name).sort()).toEqual(folders);
  });

  it('a list missing the feature that provides a need fails, naming the feature and the need', () => {
    expect(() => orderFeatures(without('checkouts'))).toThrow(
      'feature "pay" needs "checkouts", which no registered feature provides',
    );
    expect(() => orderFeatures(without('events'))).toThrow(
      'feature "ledger" needs "outbox", which no registered feature provides',
    );
  });

  it('orders providers first, keeping the registration order otherwise; refuses two providers of a name', () => {
    const consumer = fake('consumer', ['store', 'thing' as ProvisionName], []);
    const other = fake('other', [], []);
    const provider = fake('provider', ['store'], ['thing' as ProvisionName]);
    expect(orderFeatures([consumer, other, provider]).map((f) => f.name)).toEqual(['other', 'provider', 'consumer']);
    expect(() => orderFeatures([provider, fake('again', [], ['thing' as ProvisionName])])).toThrow(
      'feature "again" provides "thing", which feature "provider" already provides',
    );
    expect(() => orderFeatures([fake('store2', [], ['store'])])).toThrow(
      'feature "store2" provides "store", which the kernel already provides',
    );
  });
});

describe('start-up with a feature missing', () => {
  let dataDir: string;
  let services: Services;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hostpay-registry-'));
    services = await createServices({ dataDir, databaseUrl: '', masterKey: '' }, { generateMasterKey: true });
  });
  afterAll(async () => {
    await services?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('createServices fails before opening anything, naming the feature and its missing need', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'hostpay-registry-'));
    try {
      await expect(
        createServices(
          { dataDir: empty, databaseUrl: '', masterKey: '' },
          { generateMasterKey: true, features: without('checkouts') },
        ),
      ).rejects.toThrow('feature "pay" needs "checkouts", which no registered feature provides');
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("buildApp fails when a feature's services are not given, instead of leaving its routes out", async () => {
    const config = loadConfig({}, { dataDir, logLevel: 'silent' });
    const { checkouts: _dropped, ...rest } = services;
    await expect(
      buildApp({ config, services: services.merchant, features: rest as Services, logger: false }),
    ).rejects.toThrow('feature "checkouts" provides "checkouts", which buildApp was not given');
    const app = await buildApp({ config, services: services.merchant, features: services, logger: false });
    try {
      // Given everything, the checkout routes are there (401: they exist and ask for credentials).
      const res = await app.inject({ method: 'GET', url: CHECKOUT_PATHS.checkouts });
      expect(res.statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});

describe('docs/architecture.md shows the real diff of adding a feature', () => {
  const doc = readFileSync(join(SRC, '../../../docs/architecture.md'), 'utf8');
  const added = (path: string) => {
    const start = doc.indexOf(`+++ b/packages/server/src/${path}\n`);
    expect(start, path).toBeGreaterThan(-1);
    const hunk = doc.slice(start).split('\n').slice(1);
    const end = hunk.findIndex((line) => line.startsWith('---') || line.startsWith('```'));
    return hunk
      .slice(0, end)
      .filter((line) => line.startsWith('+'))
      .map((line) => line.slice(1));
  };

  it("the stats feature's feature.ts is shown whole, as it is", () => {
    const file = readFileSync(join(SRC, 'features/stats/feature.ts'), 'utf8');
    expect(`${added('features/stats/feature.ts').join('\n')}\n`).toBe(file);
  });

  it('its two lines are the ones in features/index.ts', () => {
    const lines = readFileSync(join(SRC, 'features/index.ts'), 'utf8').split('\n');
    const shown = added('features/index.ts');
    expect(shown).toEqual(["import { statsFeature } from './stats/feature.js';", '  statsFeature,']);
    for (const line of shown) expect(lines).toContain(line);
  });
});

describe('operator operations and background work from the descriptors', () => {
  it("two features' operator operations of one name fail at start-up instead of one replacing the other", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-registry-'));
    const clash: AnyFeature = { name: 'clash', needs: [], provides: [], admin: () => ({ stats: () => 0 }) };
    try {
      await expect(
        createServices(
          { dataDir, databaseUrl: '', masterKey: '' },
          { generateMasterKey: true, features: [...REGISTERED_FEATURES, clash] },
        ),
      ).rejects.toThrow('feature "clash" has an operator operation "stats", which feature "stats" has too');
      // What the failed start took is given back: the next start on this data dir has its instance id.
      const next = await createServices({ dataDir, databaseUrl: '', masterKey: '' });
      await next.close();
      expect(next.identity.id).toBe(readFileSync(join(dataDir, INSTANCE_ID_FILE), 'utf8').trim());
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("the merchant read path is every feature's part and the kernel's; two parts of one name fail at start-up", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-registry-'));
    const clash: AnyFeature = {
      name: 'clash',
      needs: [],
      provides: [],
      merchantServices: () => ({ touchKey: () => undefined }),
    };
    try {
      await expect(
        createServices(
          { dataDir, databaseUrl: '', masterKey: '' },
          { generateMasterKey: true, features: [...REGISTERED_FEATURES, clash] },
        ),
      ).rejects.toThrow('feature "clash" gives the merchant services "touchKey", which feature "keys" gives too');
      const next = await createServices({ dataDir, databaseUrl: '', masterKey: '' });
      await next.close();
      expect(Object.keys(next.merchant).sort()).toEqual([
        'canActFor',
        'checkReady',
        'claimSignature',
        'feePreviewBody',
        'findApiKey',
        'tokenSigningKey',
        'touchKey',
        'walletListBody',
      ]);
      // The tokens feature loads its key before any feature is made; the read path hands the same one out.
      expect(next.merchant.tokenSigningKey).toBe(next.tokenKey);
      expect(next.tokenKey.length).toBe(32);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("createServer starts each feature's background work once, except the features told not to", async () => {
    const starts = (['webhooks', 'chain-watch'] as const).map((name) => {
      // Both have background work, so `start` is there to spy on.
      const feature = REGISTERED_FEATURES.find((f) => f.name === name) as Required<Pick<AnyFeature, 'start'>>;
      return vi.spyOn(feature, 'start').mockImplementation(() => undefined);
    });
    const [webhooks, evm] = starts as [MockInstance, MockInstance];
    const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-registry-'));
    const config = loadConfig({}, { dataDir, logLevel: 'silent' });
    try {
      const all = await createServer(config, { generateMasterKey: true, logger: false });
      await all.close();
      expect([webhooks.mock.calls.length, evm.mock.calls.length]).toEqual([1, 1]);
      expect(webhooks.mock.calls[0]![0]).toBe(all.services);
      const some = await createServer(config, { logger: false, webhookWorker: false });
      await some.close();
      expect([webhooks.mock.calls.length, evm.mock.calls.length]).toEqual([1, 2]);
      const none = await createServer(config, { logger: false, evmWatcher: false, notStarted: ['webhooks'] });
      await none.close();
      expect([webhooks.mock.calls.length, evm.mock.calls.length]).toEqual([1, 2]);
    } finally {
      for (const spy of starts) spy.mockRestore();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
