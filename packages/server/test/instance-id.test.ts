import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { INSTANCE_ID_FILE, instanceIdentity, releaseInstanceId } from '../src/cluster/instance.js';

/**
 * Two live servers must never share an instance id: each would take the other's Idempotency-Key
 * claims and webhook leases for an earlier run's and run them again. Servers started at the same
 * moment from one data dir race for the lock on `<dataDir>/instance-id.lock`; exactly one may win
 * it, and a holder killed with -9 leaves nothing behind that stops the next start.
 */
const INSTANCE_JS = fileURLToPath(new URL('../dist/cluster/instance.js', import.meta.url));

// Each child waits for a shared moment, asks for its identity as `hostpay serve` does, prints it
// and stays alive for \`argv[4]\` ms so the others see its lock held.
const CHILD = `
const { instanceIdentity } = await import(process.argv[1]);
const at = Number(process.argv[3]);
while (Date.now() < at) {}
process.stdout.write(instanceIdentity('', process.argv[2], true).id + '\\n');
// Alive until the parent closes stdin (once every child has answered), or argv[4] ms.
const until = setTimeout(() => {}, Number(process.argv[4]));
process.stdin.on('data', () => {}).on('end', () => clearTimeout(until));
`;

function start(dataDir: string, at: number, lifeMs: number) {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', CHILD, INSTANCE_JS, dataDir, String(at), String(lifeMs)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const id = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.endsWith('\n')) resolve(out.trim());
    });
    child.on('exit', (code, signal) => reject(new Error(`exit ${code ?? signal} before an id: ${err}`)));
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, id, exited };
}

async function startTogether(dataDir: string, count: number): Promise<string[]> {
  const at = Date.now() + 500;
  // Each stays alive until all have answered: a late start must find the winner still holding.
  const children = Array.from({ length: count }, () => start(dataDir, at, 30_000));
  const ids = await Promise.all(children.map((c) => c.id));
  for (const c of children) c.child.stdin.end();
  await Promise.all(children.map((c) => c.exited));
  return ids;
}

/** A server that took the data dir's id and was killed with -9 while holding it. */
async function killedHolder(dataDir: string): Promise<void> {
  const holder = start(dataDir, 0, 60_000);
  expect(await holder.id).toBe('ins_saved');
  holder.child.kill('SIGKILL');
  await holder.exited;
}

describe('instance ids of servers started together from one data dir', () => {
  let dataDir = '';
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('six at once, five rounds: the saved id goes to exactly one, every id differs, no file left behind', async () => {
    for (let round = 0; round < 5; round++) {
      dataDir = mkdtempSync(join(tmpdir(), 'hostpay-ids-'));
      writeFileSync(join(dataDir, INSTANCE_ID_FILE), 'ins_saved\n');
      // Round 0 has no lock file; the others start over one a server held when it was killed.
      if (round > 0) await killedHolder(dataDir);
      const ids = await startTogether(dataDir, 6);
      expect(new Set(ids).size, `round ${round}: ${ids.join(' ')}`).toBe(6);
      expect(
        ids.filter((id) => id === 'ins_saved'),
        `round ${round}: ${ids.join(' ')}`,
      ).toHaveLength(1);
      expect(readdirSync(dataDir).sort()).toEqual([INSTANCE_ID_FILE, `${INSTANCE_ID_FILE}.lock`]);
      expect(readFileSync(join(dataDir, INSTANCE_ID_FILE), 'utf8')).toBe('ins_saved\n');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a first start of six at once: one id is saved, the one whose server holds it; the others differ', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hostpay-ids-'));
    const ids = await startTogether(dataDir, 6);
    expect(new Set(ids).size, ids.join(' ')).toBe(6);
    const saved = readFileSync(join(dataDir, INSTANCE_ID_FILE), 'utf8').trim();
    expect(
      ids.filter((id) => id === saved),
      `${saved} among ${ids.join(' ')}`,
    ).toHaveLength(1);
    // Once they are gone, the next start takes the saved id again.
    expect(await startTogether(dataDir, 1)).toEqual([saved]);
  }, 30_000);

  it('a command beside a running server does not take its id; once the server is gone it does', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hostpay-ids-'));
    writeFileSync(join(dataDir, INSTANCE_ID_FILE), 'ins_saved\n');
    const server = start(dataDir, 0, 60_000);
    expect(await server.id).toBe('ins_saved');
    const beside = instanceIdentity('', dataDir, false);
    expect(beside.id).not.toBe('ins_saved');
    releaseInstanceId(beside);
    server.child.kill('SIGKILL');
    await server.exited;
    const after = instanceIdentity('', dataDir, false);
    expect(after.id).toBe('ins_saved');
    releaseInstanceId(after);
  }, 30_000);

  it('a server that cannot take the lock (here a lock file that is no database) runs under an id of its own, and says so', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hostpay-ids-'));
    writeFileSync(join(dataDir, INSTANCE_ID_FILE), 'ins_saved\n');
    writeFileSync(
      join(dataDir, `${INSTANCE_ID_FILE}.lock`),
      'not a database, and longer than a header would be: '.repeat(20),
    );
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const identity = instanceIdentity('', dataDir, true);
      expect(identity.id).not.toBe('ins_saved');
      releaseInstanceId(identity);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      expect(warnings.join('\n')).toMatch(/cannot lock .*instance-id\.lock/);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
