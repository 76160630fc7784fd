import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveBaseUrl, resolveCredentials } from '../src/credentials.js';
import { UsageError } from '../src/output.js';
import { profilesFile, readProfiles, removeProfile, saveProfile, type Profile } from '../src/profiles.js';
import { renderTable } from '../src/table.js';
import { tempDir } from './helpers.js';

const profile = (apiKey: string, baseUrl = 'http://profile.example'): Profile => ({
  baseUrl,
  apiKey,
  apiSecret: `secret-of-${apiKey}`,
  savedAt: '',
});

describe('credentials: flags, then HOSTPAY_* variables, then the profile', () => {
  const config = tempDir();
  const env = { HOSTPAY_CONFIG_DIR: config.dir };
  const file = join(config.dir, 'profiles.json');
  saveProfile(file, 'default', profile('hp_default'));
  saveProfile(file, 'staging', profile('hp_staging', 'https://staging.example/pay/'));
  afterAll(() => config.remove());

  it('takes each setting from the first source that has it', () => {
    expect(resolveCredentials({}, env)).toEqual({
      baseUrl: 'http://profile.example',
      apiKey: 'hp_default',
      apiSecret: 'secret-of-hp_default',
      token: undefined,
      signatureVersion: 2,
    });
    expect(resolveCredentials({ profile: 'staging' }, env)).toMatchObject({
      baseUrl: 'https://staging.example/pay',
      apiKey: 'hp_staging',
    });
    expect(
      resolveCredentials(
        {},
        { ...env, HOSTPAY_PROFILE: 'staging', HOSTPAY_BASE_URL: 'http://env.example', HOSTPAY_TOKEN: 't' },
      ),
    ).toMatchObject({
      baseUrl: 'http://env.example',
      apiKey: 'hp_staging',
      token: 't',
    });
    const all = {
      ...env,
      HOSTPAY_API_KEY: 'hp_env',
      HOSTPAY_API_SECRET: 's_env',
      HOSTPAY_BASE_URL: 'http://env.example',
    };
    expect(resolveCredentials({}, all)).toMatchObject({
      apiKey: 'hp_env',
      apiSecret: 's_env',
      baseUrl: 'http://env.example',
    });
    expect(
      resolveCredentials({ apiKey: 'hp_flag', apiSecret: 's_flag', baseUrl: 'http://flag.example' }, all),
    ).toMatchObject({
      apiKey: 'hp_flag',
      apiSecret: 's_flag',
      baseUrl: 'http://flag.example',
    });
    // An empty variable counts as unset.
    expect(resolveCredentials({}, { ...env, HOSTPAY_API_KEY: '' })).toMatchObject({ apiKey: 'hp_default' });
  });

  it("never sends a profile's secret with another key", () => {
    expect(() => resolveCredentials({ apiKey: 'hp_other' }, env)).toThrow(
      /^missing API secret for hp_other: .*\(profile "default" is for another key\)$/,
    );
    expect(resolveCredentials({ apiKey: 'hp_default' }, env)).toMatchObject({ apiSecret: 'secret-of-hp_default' });
  });

  it('a named profile must exist; the default one need not', () => {
    expect(() => resolveCredentials({ profile: 'prod' }, env)).toThrow(UsageError);
    expect(() => resolveBaseUrl({}, { ...env, HOSTPAY_PROFILE: 'prod' })).toThrow(
      /no profile "prod" in .*profiles\.json: save it with `hostpay login --profile prod/,
    );
    expect(resolveBaseUrl({}, { HOSTPAY_CONFIG_DIR: join(config.dir, 'none') })).toBe('http://127.0.0.1:8080');
    expect(resolveBaseUrl({ profile: 'staging' }, env)).toBe('https://staging.example/pay');
  });

  it('a damaged profile file is a usage error that says what to do, never silently replaced', () => {
    const dir = join(config.dir, 'damaged');
    mkdirSync(dir);
    writeFileSync(join(dir, 'profiles.json'), '{"profiles": {"default": {"apiKey": 1}}}');
    expect(() => resolveCredentials({}, { HOSTPAY_CONFIG_DIR: dir })).toThrow(
      /malformed profile "default" .*: fix it, or delete it and run hostpay login again/,
    );
    expect(() => saveProfile(join(dir, 'profiles.json'), 'x', profile('hp_x'))).toThrow(UsageError);
  });
});

describe('profile file', () => {
  const config = tempDir();
  afterAll(() => config.remove());

  it('lives in $HOSTPAY_CONFIG_DIR, else $XDG_CONFIG_HOME/hostpay, else ~/.config/hostpay', () => {
    expect(profilesFile({ HOSTPAY_CONFIG_DIR: '/c', XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/c/profiles.json');
    expect(profilesFile({ XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/x/hostpay/profiles.json');
    expect(profilesFile({ HOME: '/h' })).toBe('/h/.config/hostpay/profiles.json');
  });

  it('is rewritten 0600 even when it was readable by others, and removed with its last profile', () => {
    const file = join(config.dir, 'profiles.json');
    saveProfile(file, 'a', profile('hp_a'));
    chmodSync(file, 0o644);
    saveProfile(file, 'b', profile('hp_b'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Object.keys(readProfiles(file))).toEqual(['a', 'b']);
    expect(removeProfile(file, 'a')).toBe(true);
    expect(removeProfile(file, 'a')).toBe(false);
    expect(removeProfile(file, 'b')).toBe(true);
    expect(readProfiles(file)).toEqual({});
  });
});

describe('renderTable', () => {
  it('lines decimals up on the point, pads with spaces only, leaves no trailing spaces', () => {
    const text = renderTable(
      [{ header: 'ASSET' }, { header: 'BALANCE', align: 'decimal' }, { header: 'ACTIVE' }],
      [
        ['ETH', '3.141592653589793238', 'yes'],
        ['USDT', '1250.75', 'no'],
        ['TRX', '0', 'no'],
      ],
    );
    expect(text.split('\n')).toEqual([
      'ASSET  BALANCE                  ACTIVE',
      'ETH       3.141592653589793238  yes',
      'USDT   1250.75                  no',
      'TRX       0                     no',
    ]);
  });
});
