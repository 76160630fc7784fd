import type { Algorithm } from '@node-rs/argon2';
import { lazyPromise } from '../../lazy.js';

/**
 * Passwords: argon2id with OWASP's first recommended setting (Password Storage Cheat Sheet):
 * 19 MiB of memory, 2 passes, 1 lane. The PHC string stored carries its parameters and salt, so
 * raising them later re-hashes nobody: old hashes still verify, and a sign-in re-hashes (needsRehash).
 */
export const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const OPTIONS = { ...ARGON2_PARAMS, algorithm: 2 as Algorithm /* Argon2id */, outputLen: 32 };

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

/**
 * The native argon2, loaded on the first password hashed or checked: most servers never see a
 * sign-in between starts, and a start need not map the library nor evaluate its binding.
 */
const library = lazyPromise(() => import('@node-rs/argon2'));

export const hashPassword = async (password: string): Promise<string> => (await library()).hash(password, OPTIONS);

/** A hash of nothing anyone types: verified against when the email is unknown, so both cost the same. */
let dummy: Promise<string> | undefined;

/**
 * Whether `password` matches `stored`; with `stored` undefined (no such user) the same argon2
 * work is done against a dummy hash and the answer is false, so timing does not tell which
 * emails have an account.
 */
export async function passwordMatches(stored: string | undefined, password: string): Promise<boolean> {
  if (stored === undefined) {
    dummy ??= hashPassword('hostpay-dummy-password-never-matches');
    const { verify } = await library();
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  const { verify } = await library();
  return verify(stored, password).catch(() => false);
}

/** Whether a stored hash was made with weaker parameters than today's. */
export function needsRehash(stored: string): boolean {
  const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(stored);
  return (
    m === null ||
    Number(m[1]) < ARGON2_PARAMS.memoryCost ||
    Number(m[2]) < ARGON2_PARAMS.timeCost ||
    Number(m[3]) !== ARGON2_PARAMS.parallelism
  );
}
