import { userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { cli, json, text } from './admin-helpers.js';
import { operatorScenario } from './admin-scenario.js';
import { hostpay, lines, tempDir } from './helpers.js';

/** The operator scenario on the local store, in-process: changes are audited as cli:<login>. */
operatorScenario('operator commands on the local store', async () => {
  const data = tempDir();
  return {
    run: (...args) => cli([...args, '--data-dir', data.dir]),
    operator: `cli:${userInfo().username}`,
    // Local commands go through the admin API in-process: each change has a request id too.
    requestId: /^req_[0-9a-z]+$/,
    close: async () => data.remove(),
  };
});

describe('operator commands: errors and migrate', () => {
  it('fails with one line: NOT_FOUND exit 1; bad flags exit 2 before anything is opened', async () => {
    const data = tempDir();
    try {
      const missing = await cli(['wallet', 'get', 'wal_nope', '--data-dir', data.dir]);
      expect([missing.code, missing.stdout, lines(missing.stderr).at(-1)]).toEqual([
        1,
        '',
        expect.stringMatching(/^hostpay: NOT_FOUND: wallet wal_nope does not exist \(request id req_\w+\)$/),
      ]);
    } finally {
      data.remove();
    }
    const cases: [string[], string][] = [
      [
        ['key', 'update', 'hp_x'],
        'hostpay: key update needs at least one of --scopes, --rate-limit, --expires-at, --allow-ip, --label, --[no-]require-signature-v2',
      ],
      [
        ['key', 'update', 'hp_x', '--rate-limit', 'lots'],
        "hostpay: option '--rate-limit <n>' argument 'lots' is invalid. must be a whole number from 1 to 1000000000, or default",
      ],
      [
        ['audit', 'list', '--since', 'yesterday'],
        "hostpay: option '--since <time>' argument 'yesterday' is invalid. must be an ISO 8601 time such as 2026-01-31T12:00:00Z, or a duration such as 30m, 12h or 7d",
      ],
      [
        ['merchant', 'list', '--status', 'gone'],
        "hostpay: option '--status <status>' argument 'gone' is invalid. Allowed choices are active, suspended.",
      ],
      [
        ['fee', 'list', '--default', '--merchant', 'mer_x'],
        'hostpay: fee list takes --merchant or --default, not both',
      ],
      [
        ['wallet', 'list', '--active', '--inactive'],
        "hostpay: option '--active' cannot be used with option '--inactive'",
      ],
      [
        ['merchant', 'get', 'mer_x', '--admin-url', 'http://127.0.0.1:9', '--data-dir', '/tmp'],
        "hostpay: option '--admin-url <url>' cannot be used with option '--data-dir <dir>'",
      ],
    ];
    for (const [args, line] of cases) {
      const r = await cli(args);
      expect([r.code, r.stdout, lines(r.stderr)], args.join(' ')).toEqual([2, '', [line]]);
    }
  });

  it('the real bin: migrate on a fresh store, then again as a no-op', async () => {
    const fresh = tempDir();
    try {
      const first = await hostpay(['migrate', '--data-dir', fresh.dir, '--json']);
      const { applied, schemaVersion } = json<{ applied: string[]; schemaVersion: string }>(first);
      expect(applied.slice(0, 3)).toEqual(['1', '2', '3']);
      expect(applied.at(-1)).toBe(schemaVersion);
      expect(first.stderr).toBe(''); // no master key needed, none generated
      const again = await cli(['migrate', '--data-dir', fresh.dir]);
      expect(text(again)).toBe(
        `schema is up to date at version ${schemaVersion} (SQLite ${fresh.dir}/hostpay.db): nothing to apply\n`,
      );
      expect(json(await cli(['migrate', '--data-dir', fresh.dir, '--json']))).toMatchObject({
        applied: [],
        schemaVersion,
      });
    } finally {
      fresh.remove();
    }
  });
});
