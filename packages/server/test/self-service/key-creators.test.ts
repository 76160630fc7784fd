import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostpayError } from '../../src/errors.js';
import { ROLE_SCOPES } from '../../src/features/merchant-users/roles.js';
import type { KeyUser } from '../../src/features/self-service/keys.js';
import { DIALECTS, tempServices, type TempEnv } from '../helpers.js';

/**
 * Keys and who made them (issue 42, item 7), on both stores: a key keeps the scopes it was made
 * with after its maker is demoted or removed (decided: keys are the merchant's, not the user's;
 * docs/dashboard.md), so the dashboard's key list names each key's creator with their role now,
 * and filters by creator.
 */
const ops = { operator: 'ops-alice' };

describe.each(DIALECTS)('API keys per creator on %s', (dialect) => {
  let env: TempEnv;
  let merchantId: string;
  let admin: KeyUser;
  let owner: KeyUser;
  beforeAll(async () => {
    env = await tempServices(dialect);
    merchantId = (await env.services.admin.createMerchant('Keys Shop', ops)).id;
    const team = env.services.merchantUsers.team;
    const a = await team.createEnrolled(merchantId, 'Admin@Shop.example', 'admin', 'a long enough password');
    const o = await team.createEnrolled(merchantId, 'owner@shop.example', 'owner', 'a long enough password');
    const user = (userId: string, email: string, role: 'admin' | 'owner'): KeyUser => ({
      merchantId,
      userId,
      email,
      ip: '203.0.113.7',
      scopes: ROLE_SCOPES[role],
    });
    admin = user(a.userId, 'admin@shop.example', 'admin');
    owner = user(o.userId, 'owner@shop.example', 'owner');
  });
  afterAll(async () => {
    await env?.cleanup();
  });

  it("a demoted member's key keeps its scopes; the list names its creator with the role now, and filters by creator", async () => {
    const keys = env.services.selfService.keys;
    const made = await keys.create(admin, { scopes: ['checkout:write', 'webhooks:write'], label: 'admin key' });
    const mine = await keys.create(owner, { scopes: ['wallets:read'] });
    const byOperator = await env.services.admin.createApiKey(merchantId, { scopes: ['fees:read'] }, ops);
    await env.services.merchantUsers.team.changeRole(
      merchantId,
      admin.userId,
      'viewer',
      { userId: owner.userId, email: owner.email },
      { ip: null },
    );

    // The key works as before: same scopes, active.
    const after = await env.services.admin.getApiKey(made.id);
    expect(after).toMatchObject({ status: 'active', scopes: ['checkout:write', 'webhooks:write'] });

    const all = await keys.list(owner, {});
    const creatorOf = (id: string) => all.items.find((k) => k.id === id)?.createdBy;
    expect(creatorOf(made.id)).toEqual({
      kind: 'user',
      email: 'admin@shop.example',
      userId: admin.userId,
      role: 'viewer',
    });
    expect(creatorOf(mine.id)).toEqual({ kind: 'user', email: owner.email, userId: owner.userId, role: 'owner' });
    expect(creatorOf(byOperator.id)).toEqual({ kind: 'operator', name: 'ops-alice' });

    const byId = await keys.list(owner, { createdBy: admin.userId });
    expect(byId.items.map((k) => k.id)).toEqual([made.id]);
    const byEmail = await keys.list(owner, { createdBy: 'ADMIN@shop.example' });
    expect(byEmail.items.map((k) => k.id)).toEqual([made.id]);

    // A rolled key's successor is the roller's; a removed member's keys are still found by email.
    const rolled = await keys.roll(owner, made.id);
    expect((await keys.list(owner, { createdBy: owner.userId })).items.map((k) => k.id).sort()).toEqual(
      [mine.id, rolled.new.id].sort(),
    );
    await env.services.merchantUsers.team.remove(
      merchantId,
      admin.userId,
      { userId: owner.userId, email: owner.email },
      { ip: null },
    );
    const gone = await keys.list(owner, { createdBy: 'admin@shop.example' });
    expect(gone.items.map((k) => ({ id: k.id, createdBy: k.createdBy }))).toEqual([
      { id: made.id, createdBy: { kind: 'user', email: 'admin@shop.example', userId: null, role: null } },
    ]);
    const unknown = await keys.list(owner, { createdBy: 'usr_nobody' }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(HostpayError);
    expect((unknown as HostpayError).code).toBe('INVALID_QUERY');
  });
});
