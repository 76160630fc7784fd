import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { HostpayError } from '../errors.js';
import { addressAllowed, addressKind, type AddressKind } from './addresses.js';

/**
 * The outbound address guard (SSRF), used by webhook deliveries and the chain watcher's RPC
 * connections. For webhook URLs (spec/checkout.md: refused "in any spelling … at creation with
 * 400 INVALID_URL and checked again on every connection"). The WHATWG URL parser already turns
 * `127.1`, `0x7f000001` and `2130706433` into `127.0.0.1` and `[::ffff:127.0.0.1]` into its
 * canonical IPv6 text, so every spelling reaches the same address check; names are resolved and
 * every address they resolve to must pass. The same check runs inside the HTTP agents' DNS lookup,
 * so the address a delivery actually connects to is the one checked (a name that resolved to a
 * public address at creation and to a private one later — DNS rebinding — is refused then).
 */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

export interface GuardOptions {
  /** Loopback targets (and plain http to them) are allowed only in a sandbox. */
  sandbox: boolean;
  resolve: Resolver;
}

/** A refused connection or URL; `reason` is safe to show the merchant. */
export class RefusedAddress extends Error {
  override readonly name = 'RefusedAddress';
  constructor(readonly reason: string) {
    super(reason);
  }
}

const describe = (kind: AddressKind) =>
  kind === 'loopback' ? 'a loopback address (allowed only on a sandbox server)' : `a ${kind} address`;

/** The host as the resolver and address checks see it: no brackets, no trailing dot. */
export function bareHost(url: URL): string {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return host.replace(/\.+$/, '');
}

/** Which address kinds a connection may reach, and how a refusal names a kind. */
export interface AddressPolicy {
  allowed: (kind: AddressKind) => boolean;
  describe: (kind: AddressKind) => string;
}

/**
 * Resolves `host` (unless it is a literal address) and checks every address under `policy`;
 * returns them, or throws RefusedAddress. Webhook deliveries and EVM node connections both use it.
 */
export async function checkAddresses(host: string, resolve: Resolver, policy: AddressPolicy): Promise<LookupAddress[]> {
  const literal = addressKind(host);
  if (literal !== undefined) {
    if (!policy.allowed(literal)) throw new RefusedAddress(`${host} is ${policy.describe(literal)}`);
    return [{ address: host, family: host.includes(':') ? 6 : 4 }];
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch (err) {
    throw new RefusedAddress(`${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'DNS error'})`);
  }
  if (addresses.length === 0) throw new RefusedAddress(`${host} does not resolve`);
  for (const a of addresses) {
    const kind = addressKind(a.address) ?? 'reserved';
    // One refused address refuses the name: a resolver may hand out any of them next time.
    if (!policy.allowed(kind)) throw new RefusedAddress(`${host} resolves to ${a.address}, ${policy.describe(kind)}`);
  }
  return addresses;
}

/** The webhook policy: public addresses, and loopback on a sandbox server. */
export const checkedAddresses = (host: string, opts: GuardOptions): Promise<LookupAddress[]> =>
  checkAddresses(host, opts.resolve, { allowed: (kind) => addressAllowed(kind, opts.sandbox), describe });

/** Parses and checks a webhook URL as the endpoint routes do: 400 INVALID_URL with the reason. */
export async function checkWebhookUrl(text: string, opts: GuardOptions): Promise<URL> {
  const invalid = (reason: string): never => {
    throw new HostpayError('INVALID_URL', `url ${reason}`, { parameter: 'url' });
  };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid('is not an absolute URL, e.g. https://example.com/hooks');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') invalid('must use https');
  if (url.username !== '' || url.password !== '')
    invalid('must not carry credentials: put a token in the path or check the signature');
  if (url.hash !== '') invalid('must not have a #fragment');
  const host = bareHost(url);
  if (host === '') invalid('has no host');
  let addresses: LookupAddress[] = [];
  try {
    addresses = await checkedAddresses(host, opts);
  } catch (err) {
    if (err instanceof RefusedAddress) invalid(`is refused: ${err.reason}; webhooks go only to public addresses`);
    throw err;
  }
  // Plain http only to loopback on a sandbox server (`hostpay listen`, local tests).
  if (url.protocol === 'http:' && !(opts.sandbox && addresses.every((a) => addressKind(a.address) === 'loopback'))) {
    invalid(opts.sandbox ? 'must use https (http only to localhost on a sandbox server)' : 'must use https');
  }
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).Agent that answers only addresses `check` lets through: Node calls it for
 * every new connection to a name, and connects to what it returns, so a refused address is never
 * connected to.
 */
export function lookupThrough(check: (host: string) => Promise<LookupAddress[]>) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    check(hostname.replace(/\.+$/, '')).then(
      (addresses) => {
        const wanted =
          options.family === 4 || options.family === 6
            ? addresses.filter((a) => a.family === options.family)
            : addresses;
        if (wanted.length === 0)
          return callback(
            Object.assign(new Error(`${hostname} has no IPv${options.family} address`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
        if (options.all) return callback(null, wanted);
        return callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: Error) => callback(Object.assign(err, { code: 'EREFUSEDADDRESS' }), '', 0),
    );
  };
}
