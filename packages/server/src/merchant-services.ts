import type { MerchantServices } from './auth/ports.js';
import type { UsedSignatures } from './cluster/used-signatures.js';
import type { AnyFeature, Provisions } from './feature-kit/feature.js';
import { REGISTERED_FEATURES } from './features/index.js';

/**
 * The merchant read path authentication and the fast path call: the kernel's part (readiness,
 * single-use signatures) and every feature's `merchantServices` part (the key lookup, cached
 * answers), one owner per field.
 */
export function createMerchantServices(
  provisions: Provisions,
  /** Where used signatures are recorded (Redis or the store). */
  signatures: UsedSignatures,
  features: readonly AnyFeature[] = REGISTERED_FEATURES,
): MerchantServices {
  const services: Record<string, unknown> = {
    checkReady: () => provisions.store.ping(),
    claimSignature: (keyId: string, signature: string, expiresAtMs: number) =>
      signatures.claim(keyId, signature, expiresAtMs),
  };
  const owner = new Map<string, string>(Object.keys(services).map((name) => [name, 'the kernel']));
  for (const feature of features) {
    for (const [name, part] of Object.entries(feature.merchantServices?.(provisions) ?? {})) {
      // One flat object: a second feature's part of the same name would replace the first's.
      const other = owner.get(name);
      if (other !== undefined) {
        throw new Error(`feature "${feature.name}" gives the merchant services "${name}", which ${other} gives too`);
      }
      owner.set(name, `feature "${feature.name}"`);
      services[name] = part;
    }
  }
  return services as unknown as MerchantServices;
}
