import { Secret, TOTP } from 'otpauth';

/**
 * TOTP (RFC 6238): SHA-1, 6 digits, 30 s steps, the step before and after accepted for clock
 * drift. The step a code matched is returned so the caller can refuse it (and every earlier
 * step) the next time: a code is good once.
 */
export const TOTP_PERIOD = 30;
export const TOTP_WINDOW = 1;

const totpOf = (secretBase32: string, email: string) =>
  new TOTP({
    issuer: 'hostpay',
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

export const otpauthUri = (secretBase32: string, email: string): string => totpOf(secretBase32, email).toString();

/** The step `code` is valid for at `nowMs` (±1 step), or undefined. */
export function totpStep(secretBase32: string, email: string, code: string, nowMs: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf(secretBase32, email).validate({ token: code, timestamp: nowMs, window: TOTP_WINDOW });
  if (delta === null) return undefined;
  return Math.floor(nowMs / 1000 / TOTP_PERIOD) + delta;
}

/** The code of a step (tests and the demo). */
export const totpCode = (secretBase32: string, nowMs: number): string =>
  TOTP.generate({
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD,
    timestamp: nowMs,
  });
