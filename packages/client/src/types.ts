import type { WireFeePreview, WireTimeResult, WireTokenResult, WireWallet } from './wire.js';
import type { AmountMode, DecimalField, DecimalInput } from './decimals.js';

/** `T` with every decimal field typed as `D` (string or number), nested objects included. */
export type WithDecimals<T, D> = T extends readonly (infer U)[]
  ? WithDecimals<U, D>[]
  : T extends object
    ? { [K in keyof T]: K extends DecimalField ? (null extends T[K] ? D | null : D) : WithDecimals<T[K], D> }
    : T;

/** The type decimal fields take in a given amount mode. */
export type DecimalOf<M extends AmountMode> = M extends 'number' ? number : string;

/** A wallet (interface §2.2), amounts as exact strings unless the client was built with amounts: 'number'. */
export type Wallet<M extends AmountMode = 'string'> = WithDecimals<WireWallet, DecimalOf<M>>;
/** A fee preview (interface §2.3 plus the computed figures), amounts as for Wallet. */
export type FeePreview<M extends AmountMode = 'string'> = WithDecimals<WireFeePreview, DecimalOf<M>>;
/** A bearer token issued by POST /api/v1/auth/token. */
export type TokenResult = WireTokenResult;
/** The server clock from GET /api/v1/time. */
export type TimeResult = WireTimeResult;

/** Options every call accepts. */
export interface CallOptions {
  /** Aborts the call (and its retries); the call rejects with a HostpayError coded ABORTED. */
  signal?: AbortSignal | undefined;
  /** Time budget for this call, retries and waits included; overrides the client's timeoutMs. */
  timeoutMs?: number | undefined;
}

export interface ListWalletsParams extends CallOptions {
  /** Act for this sub-merchant (platform keys granted it only). */
  merchantId?: string | undefined;
}

export interface PreviewFeesParams extends CallOptions {
  /** The checkout amount: positive, at most 18 fractional digits, at most 10^15. */
  amount: DecimalInput;
  /** Currency or asset code, case-insensitive (e.g. EUR, USDT). */
  currency: string;
  /** Act for this sub-merchant (platform keys granted it only). */
  merchantId?: string | undefined;
}

export interface IssueTokenParams extends CallOptions {
  /** Token lifetime in seconds, 60..86400; the server's default (1 h) when left out. */
  expiresIn?: number | undefined;
  /** Narrow the token to these scopes of the key; all of them when left out. */
  scope?: string[] | undefined;
}
