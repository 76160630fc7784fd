import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Who this process is, for the leases it takes in the shared store (webhook endpoints,
 * Idempotency-Key claims). `id` names the instance and survives a restart: HOSTPAY_INSTANCE_ID,
 * else `<dataDir>/instance-id`, written once with a random id. `boot` is new on every start. A
 * lease's owner is `<id>/<boot>`: a lease held by the same `id` under another `boot` belongs to
 * an earlier run of this instance, which is gone (two live processes never share an id), so it is
 * taken back at once instead of waiting for it to expire.
 */
export interface InstanceIdentity {
  id: string;
  boot: string;
  /** `<id>/<boot>`: what leases record as their owner. */
  owner: string;
}

export const INSTANCE_ID_FILE = 'instance-id';
export const INSTANCE_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

export function instanceIdentity(configured: string, dataDir: string): InstanceIdentity {
  const id = configured !== '' ? configured : persistedId(dataDir);
  const boot = randomBytes(6).toString('hex');
  return { id, boot, owner: `${id}/${boot}` };
}

/** What the owner of a lease held by any run of `identity`'s instance starts with: `<id>/`. */
export function earlierRunPrefix(identity: InstanceIdentity): string {
  return `${identity.id}/`;
}

function persistedId(dataDir: string): string {
  const file = join(dataDir, INSTANCE_ID_FILE);
  try {
    const saved = readFileSync(file, 'utf8').trim();
    if (INSTANCE_ID_PATTERN.test(saved)) return saved;
  } catch {
    // none yet
  }
  const id = `ins_${randomBytes(8).toString('hex')}`;
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${id}\n`, { mode: 0o600 });
  } catch {
    // A read-only data dir: the id lives as long as the process (leases then wait to expire).
  }
  return id;
}
