import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from './output.js';

/** Saved credentials, written by `hostpay login`. No token: tokens are short-lived, each command gets its own. */
export interface Profile {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  savedAt: string;
}

export const DEFAULT_PROFILE = 'default';
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

type Env = Record<string, string | undefined>;
const setting = (env: Env, name: string): string | undefined => (env[name] === '' ? undefined : env[name]);

/**
 * `$HOSTPAY_CONFIG_DIR/profiles.json`, else `$XDG_CONFIG_HOME/hostpay/profiles.json`, else
 * `~/.config/hostpay/profiles.json`. Read from the injected environment so tests never touch
 * the real home directory.
 */
export function profilesFile(env: Env): string {
  const dir =
    setting(env, 'HOSTPAY_CONFIG_DIR') ??
    join(setting(env, 'XDG_CONFIG_HOME') ?? join(setting(env, 'HOME') ?? homedir(), '.config'), 'hostpay');
  return join(dir, 'profiles.json');
}

/** The profile a command uses: `--profile`, else `$HOSTPAY_PROFILE`, else `default`. */
export function profileName(flag: string | undefined, env: Env): { name: string; explicit: boolean } {
  const given = flag ?? setting(env, 'HOSTPAY_PROFILE');
  const name = given ?? DEFAULT_PROFILE;
  if (!NAME_RE.test(name))
    throw new UsageError(
      `profile name ${JSON.stringify(name)} is invalid: use 1 to 64 letters, digits, '.', '_' or '-'`,
    );
  return { name, explicit: given !== undefined };
}

/** Every saved profile; none when the file does not exist. A damaged file is an error, never silently replaced. */
export function readProfiles(file: string): Record<string, Profile> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`cannot read the profile file ${file}: ${(err as Error).message}`);
  }
  const damaged = (why: string) =>
    new UsageError(`profile file ${file} ${why}: fix it, or delete it and run hostpay login again`);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw damaged('is not valid JSON');
  }
  const profiles = (doc as { profiles?: unknown } | null)?.profiles;
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles))
    throw damaged('has no "profiles" object');
  const out: Record<string, Profile> = {};
  for (const [name, p] of Object.entries(profiles as Record<string, unknown>)) {
    const fields = p as Partial<Record<keyof Profile, unknown>> | null;
    if (
      typeof fields?.baseUrl !== 'string' ||
      typeof fields.apiKey !== 'string' ||
      typeof fields.apiSecret !== 'string'
    ) {
      throw damaged(`has a malformed profile ${JSON.stringify(name)} (it needs baseUrl, apiKey and apiSecret)`);
    }
    out[name] = {
      baseUrl: fields.baseUrl,
      apiKey: fields.apiKey,
      apiSecret: fields.apiSecret,
      savedAt: String(fields.savedAt ?? ''),
    };
  }
  return out;
}

/** Adds or replaces one profile; the others are kept. */
export function saveProfile(file: string, name: string, profile: Profile): void {
  writeProfiles(file, { ...readProfiles(file), [name]: profile });
}

/** Removes one profile (the file too when it was the last); false when there was none. */
export function removeProfile(file: string, name: string): boolean {
  const profiles = readProfiles(file);
  if (!Object.hasOwn(profiles, name)) return false;
  delete profiles[name];
  if (Object.keys(profiles).length === 0) rmSync(file, { force: true });
  else writeProfiles(file, profiles);
  return true;
}

/**
 * The file holds API secrets: the directory is created 0700 and the file is written 0600 under a
 * temporary name, then renamed over the old one, so no reader ever sees a half-written file and
 * the secret is never readable by others, not even for a moment.
 */
function writeProfiles(file: string, profiles: Record<string, Profile>): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify({ profiles }, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
    chmodSync(temp, 0o600); // the mode above is masked by the umask; this one is exact
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw new Error(`cannot write the profile file ${file}: ${(err as Error).message}`);
  }
}
