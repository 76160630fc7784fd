import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { describeError } from '../src/output.js';
import { COMMANDS, buildProgram, run } from '../src/program.js';
import { lines, memoryIo } from './helpers.js';

/** Every command path in the tree, e.g. ['wallet', 'credit'], found from the program itself. */
function commandPaths(cmd: Command, prefix: string[] = []): string[][] {
  return cmd.commands.flatMap((sub) => {
    const path = [...prefix, sub.name()];
    return [path, ...commandPaths(sub, path)];
  });
}

describe('command line parsing (in-process)', () => {
  const paths = commandPaths(buildProgram(memoryIo()));

  it('knows the commands of the issue', () => {
    const names = paths.map((p) => p.join(' '));
    for (const expected of [
      'serve',
      'merchant create',
      'key create',
      'wallet create',
      'wallet credit',
      'wallet debit',
      'wallet freeze',
      'wallet unfreeze',
      'fee set',
      'rate set',
      'login',
      'logout',
      'wallets',
      'fees-preview',
      'time',
      'token',
      'curl',
      'events list',
      'events get',
      'events redeliver',
      'webhooks create',
      'webhooks list',
      'webhooks test',
      'webhooks deliveries',
      'webhooks rotate-secret',
      'listen',
      'trigger',
    ]) {
      expect(names).toContain(expected);
    }
    // The operator API's commands (every admin operation, on the store or through --admin-url).
    for (const expected of [
      'merchant list',
      'merchant get',
      'merchant rename',
      'merchant suspend',
      'merchant resume',
      'key list',
      'key get',
      'key update',
      'key revoke',
      'key rotate',
      'key grant',
      'key ungrant',
      'key grants',
      'wallet list',
      'wallet get',
      'wallet activate',
      'wallet deactivate',
      'wallet postings',
      'asset networks',
      'fee list',
      'fee delete',
      'fee preview',
      'settlement set',
      'settlement list',
      'rate list',
      'audit list',
      'master-key rotate',
      'migrate',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it('every operator command offers --json, and the backend choice where the admin API has it', () => {
    const program = buildProgram(memoryIo());
    const find = (path: string[]) =>
      path.reduce<Command | undefined>((cmd, name) => cmd?.commands.find((c) => c.name() === name), program);
    const OPERATOR_GROUPS = new Set(['merchant', 'key', 'wallet', 'asset', 'fee', 'settlement', 'rate', 'audit']);
    // Leaves only: `rate spread` is a group whose show/set are the commands.
    const operatorPaths = paths.filter(
      (p) => p.length === 2 && OPERATOR_GROUPS.has(p[0]!) && find(p)!.commands.length === 0,
    );
    for (const path of operatorPaths) {
      const longs = find(path)!.options.map((o) => o.long);
      expect(longs, path.join(' ')).toEqual(expect.arrayContaining(['--admin-url', '--data-dir', '--json']));
    }
    expect(operatorPaths.length).toBeGreaterThan(30);
  });

  it.each([[[]] as [string[]], ...paths.map((p) => [p] as [string[]])])(
    'hostpay %j --help exits 0 and prints usage',
    async (path) => {
      const io = memoryIo();
      expect(await run([...path, '--help'], io)).toBe(0);
      // A command with an alias prints both: `hostpay link get|show`.
      expect(io.out).toMatch(new RegExp(`^Usage: hostpay${path.map((p) => ` ${p}(\\|[a-z-]+)?`).join('')} `));
      expect(io.err).toBe('');
    },
  );

  it.each([
    [['wallet', 'credit', 'wal_1', '1', '--bogus'], "hostpay: unknown option '--bogus'"],
    [['wallet'], 'hostpay: missing command: run `hostpay wallet --help` to see the commands'],
    [['nope'], "hostpay: unknown command 'nope'"],
    [['wallet', 'credit', 'wal_1'], "hostpay: missing required argument 'amount'"],
    [['merchant', 'create'], "hostpay: required option '--name <name>' not specified"],
    [['fee', 'set', '--currency', 'USDT'], 'hostpay: fee set needs --percent <p> or --fixed <f>'],
    [
      ['key', 'create', '--merchant', 'm', '--rate-limit', '1.5'],
      "hostpay: option '--rate-limit <n>' argument '1.5' is invalid. must be a whole number from 1 to 1000000000",
    ],
    [
      ['serve', '--port', '70000'],
      "hostpay: option '--port <port>' argument '70000' is invalid. must be a whole number from 0 to 65535",
    ],
    [
      ['token', '--expires-in', '10'],
      "hostpay: option '--expires-in <seconds>' argument '10' is invalid. must be a whole number from 60 to 86400",
    ],
    [
      ['curl', '/x'],
      'hostpay: missing API key: pass --api-key, set HOSTPAY_API_KEY, or save them once with `hostpay login --api-key KEY --api-secret SECRET`',
    ],
    [
      ['wallets', '--api-key', 'hp_x'],
      'hostpay: missing API secret for hp_x: pass --api-secret, set HOSTPAY_API_SECRET, or save them once with `hostpay login --api-key KEY --api-secret SECRET`',
    ],
    [['fees-preview', '100'], "hostpay: missing required argument 'currency'"],
    [
      ['login', '--api-key', 'hp_x'],
      'hostpay: login needs the API secret: pass --api-secret or set HOSTPAY_API_SECRET',
    ],
    [
      ['time', '--profile', 'no/such'],
      "hostpay: profile name \"no/such\" is invalid: use 1 to 64 letters, digits, '.', '_' or '-'",
    ],
    [
      ['curl', '/x', '--api-key', 'k', '--api-secret', 's', '--base-url', 'ftp://x'],
      'hostpay: base URL must start with http:// or https://, got "ftp://x"',
    ],
  ])('usage error %j: exit 2 and one line', async (argv, message) => {
    const io = memoryIo();
    expect(await run(argv, io)).toBe(2);
    expect(lines(io.err)).toEqual([message]);
    expect(io.out).toBe('');
  });

  it('reports an unreachable server as one UNAVAILABLE line, exit 3', async () => {
    const io = memoryIo({
      HOSTPAY_API_KEY: 'hp_x',
      HOSTPAY_API_SECRET: 'sk_x',
      HOSTPAY_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(await run(['token'], io)).toBe(3);
    expect(lines(io.err)).toEqual([
      expect.stringMatching(
        /^hostpay: UNAVAILABLE: cannot reach http:\/\/127\.0\.0\.1:9\/api\/v1\/auth\/token: .*npx hostpay serve --demo/,
      ),
    ]);
  });

  it('reports an unreachable server for a merchant command as one line naming the address, exit 3', async () => {
    const io = memoryIo({
      HOSTPAY_API_KEY: 'hp_x',
      HOSTPAY_API_SECRET: 'sk_x',
      HOSTPAY_BASE_URL: 'http://127.0.0.1:9',
    });
    expect(await run(['time'], io)).toBe(3);
    expect(lines(io.err)).toEqual([
      expect.stringMatching(
        /^hostpay: NETWORK_ERROR: cannot reach http:\/\/127\.0\.0\.1:9: .*npx hostpay serve --demo$/,
      ),
    ]);
  });
});

describe('a command line builds only the command it names (COMMANDS)', () => {
  const full = buildProgram(memoryIo());

  it('each entry registers exactly its names, and together they are the whole tree, in order', () => {
    for (const entry of COMMANDS) {
      const alone = buildProgram(memoryIo(), () => {}, entry);
      expect(alone.commands.map((c) => c.name())).toEqual(entry.names);
    }
    expect(full.commands.map((c) => c.name())).toEqual(COMMANDS.flatMap((c) => c.names));
  });

  it('every command and subcommand has the same options, arguments and help either way', () => {
    const help = (cmd: Command, path: string[]): string[] => [
      `${path.join(' ')}\n${cmd.helpInformation()}`,
      ...cmd.commands.flatMap((sub) => help(sub, [...path, sub.name()])),
    ];
    for (const entry of COMMANDS) {
      const alone = buildProgram(memoryIo(), () => {}, entry);
      for (const name of entry.names) {
        const a = alone.commands.find((c) => c.name() === name)!;
        const b = full.commands.find((c) => c.name() === name)!;
        expect(help(a, [name])).toEqual(help(b, [name]));
      }
    }
  });

  it('a usage error reads the same as with the whole tree', async () => {
    for (const argv of [
      ['serve', '--no-such-option'],
      ['wallet', 'credit', 'wal_1'],
      ['rates', '--bogus'],
    ]) {
      let help = '';
      const whole = buildProgram(memoryIo(), (text) => (help += text));
      const expected = await whole.parseAsync(argv, { from: 'user' }).then(
        () => undefined,
        (err) => describeError(err, help).line,
      );
      const io = memoryIo();
      expect(await run(argv, io)).toBe(2);
      expect(expected).toBeTypeOf('string');
      expect(lines(io.err)).toEqual([expected]);
    }
    const help = memoryIo();
    expect(await run(['help', 'serve'], help)).toBe(0);
    expect(help.out).toContain('Usage: hostpay serve');
    const typo = memoryIo();
    expect(await run(['serv'], typo)).toBe(2);
    expect(typo.err).toContain('serve');
  });
});
