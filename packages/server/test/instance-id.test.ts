import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { INSTANCE_ID_FILE } from '../src/cluster/instance.js';

/**
 * Two live servers must never share an instance id: each would take the other's Idempotency-Key
 * claims and webhook leases for an earlier run's and run them again. Servers started at the same
 * moment from one data dir race for `<dataDir>/instance-id.pid`; exactly one may win it.
 */
const INSTANCE_JS = fileURLToPath(new URL('../dist/cluster/instance.js', import.meta.url));

// Each child waits for a shared moment, then asks for its identity as `hostpay serve` does, and
// stays alive a little so the others see its pid as live.
const CHILD = `
const { instanceIdentity } = await import(process.argv[1]);
const at = Number(process.argv[3]);
while (Date.now() < at) {}
process.stdout.write(instanceIdentity('', process.argv[2], true).id);
setTimeout(() => {}, 1000);
`;

function startTogether(dataDir: string, count: number): Promise<string[]> {
  const at = Date.now() + 500;
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<string>((resolve, reject) => {
          const child = spawn(
            process.execPath,
            ['--input-type=module', '-e', CHILD, INSTANCE_JS, dataDir, String(at)],
            {
              stdio: ['ignore', 'pipe', 'pipe'],
            },
          );
          let out = '';
          let err = '';
          child.stdout.on('data', (d: Buffer) => (out += d.toString()));
          child.stderr.on('data', (d: Buffer) => (err += d.toString()));
          child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}: ${err}`))));
        }),
    ),
  );
}

describe('instance ids of servers started together from one data dir', () => {
  let dataDir = '';
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('six at once, five rounds: the saved id goes to exactly one, every id differs, no file left behind', async () => {
    for (let round = 0; round < 5; round++) {
      dataDir = mkdtempSync(join(tmpdir(), 'hostpay-ids-'));
      writeFileSync(join(dataDir, INSTANCE_ID_FILE), 'ins_saved\n');
      // Round 0 has no pid file; the others start over a stale one (a server killed with -9).
      if (round > 0) writeFileSync(join(dataDir, `${INSTANCE_ID_FILE}.pid`), '999999999\n');
      const ids = await startTogether(dataDir, 6);
      expect(new Set(ids).size, `round ${round}: ${ids.join(' ')}`).toBe(6);
      expect(
        ids.filter((id) => id === 'ins_saved'),
        `round ${round}: ${ids.join(' ')}`,
      ).toHaveLength(1);
      expect(readdirSync(dataDir).sort()).toEqual([INSTANCE_ID_FILE, `${INSTANCE_ID_FILE}.pid`]);
      expect(Number(readFileSync(join(dataDir, `${INSTANCE_ID_FILE}.pid`), 'utf8'))).toBeGreaterThan(0);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
