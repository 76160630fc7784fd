import type { Scope } from '@hostpay/protocol';
import { checkKeyState } from '../../auth/key-checks.js';
import type { MerchantServices, MerchantSessionPort } from '../../auth/ports.js';
import { authorize, type Principal, type SessionPrincipal } from '../../auth/principal.js';
import { HostpayError } from '../../errors.js';

/**
 * Why an open stream may no longer be served (an error code), or undefined while it may. A stream
 * is authenticated once, at connect, and then lasts up to an hour: this asks again what the
 * authentication asked, through the same key lookup and cache, so a revoked or expired key, a
 * suspended merchant, a narrowed key or a changed IP allow-list ends it (stream.ts asks about
 * every second). The key cache is what makes it cheap and what makes it reach every instance:
 * a hit costs a Map lookup, and every write to a key or merchant drops it here too (Redis /
 * PostgreSQL change feed between instances, SQLite's data_version for other processes).
 */
export type StreamCredentialCheck = () => string | undefined | Promise<string | undefined>;

export function streamCredentialCheck(
  services: Pick<MerchantServices, 'findApiKey' | 'canActFor'>,
  principal: Principal,
  opts: { scope: Scope; ip: string; merchantId: string; now: () => number; sessions?: MerchantSessionPort | undefined },
): StreamCredentialCheck {
  if (principal.via === 'session') return sessionCheck(opts.sessions, principal, opts.scope);
  const { key: connected, token } = principal;
  const decide = (key: Awaited<ReturnType<MerchantServices['findApiKey']>>): string | undefined => {
    // The key is gone (deleted): nothing to authenticate with any more.
    if (key === undefined) return 'UNKNOWN_API_KEY';
    try {
      checkKeyState(key, opts.ip, opts.now());
      authorize(opts.scope, { ...principal, key, token });
    } catch (err) {
      if (err instanceof HostpayError) return err.code;
      throw err;
    }
    return undefined;
  };
  // A platform key streaming a sub-merchant: the grant (and the sub-merchant being active) is a
  // store query, asked only for such streams, after the key itself passed.
  const granted = async (): Promise<string | undefined> =>
    (await services.canActFor(connected.id, connected.merchantId, opts.merchantId)) ? undefined : 'MERCHANT_FORBIDDEN';
  return () => {
    const found = services.findApiKey(connected.id);
    const own = opts.merchantId === connected.merchantId;
    if (!(found instanceof Promise)) {
      const reason = decide(found);
      return reason !== undefined || own ? reason : granted();
    }
    return found.then(decide).then((reason) => (reason !== undefined || own ? reason : granted()));
  };
}

/**
 * A dashboard session's stream: asked again through the session port (a store read, about every
 * second per open stream), so signing out, sign-out-everywhere, a role change that drops the
 * scope, removal of the user or suspension of the merchant ends it.
 */
function sessionCheck(
  port: MerchantSessionPort | undefined,
  principal: SessionPrincipal,
  scope: Scope,
): StreamCredentialCheck {
  if (port === undefined) return () => 'SESSION_REQUIRED';
  return async () => {
    try {
      authorize(scope, await port.principalByHash(principal.sessionHash));
      return undefined;
    } catch (err) {
      if (err instanceof HostpayError) return err.code;
      throw err;
    }
  };
}
