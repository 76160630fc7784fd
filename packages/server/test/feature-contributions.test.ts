import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PointName } from '../src/feature-kit/contributions.js';
import type { AnyFeature, ProvisionName } from '../src/feature-kit/feature.js';
import { orderFeatures } from '../src/feature-kit/registry.js';
import { hotWalletGuard } from '../src/features/hot-wallet/guard.js';
import { REGISTERED_FEATURES } from '../src/features/index.js';
import { deliveriesOwed } from '../src/features/webhooks/queue.js';
import { notificationsOwed } from '../src/features/mail/notify.js';
import { createServices, type Services } from '../src/services.js';

// A point of the real list stands for any: the registry treats every point alike.
const POINT = 'payoutGuards' as PointName;
const tmp = () => mkdtempSync(join(tmpdir(), 'hostpay-contributions-'));

/** A feature that contributes `values` to `point`. */
const contributor = (name: string, point: string, values: unknown[]): AnyFeature => ({
  name,
  needs: [],
  provides: [],
  contributes: { [point]: () => values } as AnyFeature['contributes'],
});

describe('contribution points (feature-kit/contributions.ts)', () => {
  it('a contribution to a point no registered feature consumes fails, naming the feature and the point', () => {
    expect(() => orderFeatures([contributor('giver', 'nowhere', [1])])).toThrow(
      'feature "giver" contributes to "nowhere", which no registered feature consumes',
    );
    // The real list without the point's consumer: the hot wallet's guard would be dropped silently.
    const consumerless = REGISTERED_FEATURES.map((f) => (f.name === 'payouts' ? { ...f, consumes: [] } : f));
    expect(() => orderFeatures(consumerless)).toThrow(
      'feature "hot-wallet" contributes to "payoutGuards", which no registered feature consumes',
    );
  });

  it('two consumers of one point fail, naming both', () => {
    const a: AnyFeature = { name: 'a', needs: [], provides: [], consumes: [POINT] };
    const b: AnyFeature = { name: 'b', needs: [], provides: [], consumes: [POINT] };
    expect(() => orderFeatures([a, b])).toThrow(
      'feature "b" consumes "payoutGuards", which feature "a" already consumes: one point, one consumer',
    );
  });

  it('createServices refuses a contribution without a consumer before opening anything', async () => {
    const dataDir = tmp();
    try {
      await expect(
        createServices(
          { dataDir, databaseUrl: '', masterKey: '' },
          { generateMasterKey: true, features: [contributor('giver', 'nowhere', [1])] },
        ),
      ).rejects.toThrow('feature "giver" contributes to "nowhere", which no registered feature consumes');
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("every feature's contributions reach the consumer, in the features' order, once every feature is made", async () => {
    const dataDir = tmp();
    let read: (() => readonly unknown[]) | undefined;
    let readInCreate: unknown;
    const consumer: AnyFeature = {
      name: 'consumer',
      needs: [],
      provides: [],
      consumes: [POINT],
      create(_deps, contributed) {
        read = contributed[POINT];
        try {
          read();
        } catch (err) {
          readInCreate = err;
        }
        return {};
      },
    };
    // Made after the consumer, and from its own provision: contributions are collected once all are made.
    const late: AnyFeature = {
      name: 'late',
      needs: ['publicBaseUrl'],
      provides: [],
      contributes: { [POINT]: ({ publicBaseUrl }: { publicBaseUrl: () => string }) => [`late ${publicBaseUrl()}`] },
    } as AnyFeature;
    const services = await createServices(
      { dataDir, databaseUrl: '', masterKey: '', publicUrl: 'https://pay.example' },
      {
        generateMasterKey: true,
        features: [contributor('first', POINT, ['a', 'b']), consumer, late, contributor('none', POINT, [])],
      },
    );
    try {
      expect(String(readInCreate)).toContain(
        'feature "consumer" read its "payoutGuards" contributions before every feature was made',
      );
      expect(read!()).toEqual(['a', 'b', 'late https://pay.example']);
      expect(Object.isFrozen(read!())).toBe(true);
    } finally {
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the registered features are wired through their points', () => {
  let dataDir: string;
  let services: Services;
  beforeAll(async () => {
    dataDir = tmp();
    services = await createServices({ dataDir, databaseUrl: '', masterKey: '' }, { generateMasterKey: true });
  });
  afterAll(async () => {
    await services?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("the outbox runs the webhooks' and the mail's subscribers; payouts', the chain watcher's, the system's and the mail's points are declared", () => {
    expect(services.outbox.subscribers()).toEqual([deliveriesOwed, notificationsOwed]);
    const consumers = Object.fromEntries(
      REGISTERED_FEATURES.flatMap((f) => (f.consumes ?? []).map((point) => [point, f.name])),
    );
    expect(consumers).toEqual({
      outboxSubscribers: 'events',
      payoutGuards: 'payouts',
      payoutConfirmations: 'chain-watch',
      health: 'system',
      checkoutMoves: 'checkouts',
      mailTemplates: 'mail',
      receiptLines: 'pay',
      searchSources: 'reports',
    });
    // /readyz and /metrics hear of the chain watcher through the system's point, not a field of the route context.
    expect(services.healthReports().map((r) => Object.keys(r).sort())).toEqual([['chains', 'collectors']]);
    const hotWallet = REGISTERED_FEATURES.find((f) => f.name === 'hot-wallet')!;
    const guards = hotWallet.contributes?.payoutGuards as unknown as (p: unknown) => unknown[];
    expect(guards({})).toEqual([hotWalletGuard]);
    // The search reads the links' and the invoices' own sources; receipts list their items.
    expect(services.reports.searchSources().map((s) => s.scope)).toEqual([
      'checkout:read',
      'payouts:read',
      'links:read',
      'invoices:read',
    ]);
    const contributors = (point: string) =>
      REGISTERED_FEATURES.filter((f) => Object.keys(f.contributes ?? {}).includes(point)).map((f) => f.name);
    expect(contributors('receiptLines')).toEqual(['payment-links', 'invoices']);
  });

  it('provisions name no registry: no feature provides a way to register with another at start-up', () => {
    const names: ProvisionName[] = REGISTERED_FEATURES.flatMap((f) => [...f.provides]);
    expect(names).not.toContain('payoutGuards');
    expect(Object.keys(services.chainWatch)).not.toContain('followPayouts');
  });
});
