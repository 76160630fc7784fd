import { describe, expect, it } from 'vitest';
import { resignOnReuse } from '../src/index.js';

const REUSED =
  '{"status":false,"message":"this signed request was already accepted once","isSuccess":false,"error":{"code":"SIGNATURE_REUSED"}}';
const CONFLICT = '{"status":false,"message":"no","isSuccess":false,"error":{"code":"PAYOUT_STATE_CONFLICT"}}';

/** A signer whose clock stands 1 ms before a whole second, so the wait for the next one is short. */
function scripted(answers: Array<() => Response>) {
  const signedAt: number[] = [];
  let clock = 1_700_000_000_999;
  const send = async (nowMs: number) => {
    signedAt.push(nowMs);
    clock += 1000;
    const next = answers.shift();
    if (next === undefined) throw new Error('no answer scripted');
    return next();
  };
  return { send, signedAt, now: () => clock };
}

describe('resignOnReuse', () => {
  it('SIGNATURE_REUSED: signed again at the next clock reading, once; a second refusal is returned', async () => {
    const s = scripted([() => new Response(REUSED, { status: 409 }), () => new Response(REUSED, { status: 409 })]);
    const res = await resignOnReuse(s.send, { now: s.now });
    expect(s.signedAt).toEqual([1_700_000_000_999, 1_700_000_001_999]);
    expect(res.status).toBe(409);
    expect(JSON.parse(await res.text()).error.code).toBe('SIGNATURE_REUSED');
  });

  it('another 409 is not sent again, and its body is still readable', async () => {
    const s = scripted([() => new Response(CONFLICT, { status: 409 })]);
    const res = await resignOnReuse(s.send, { now: s.now });
    expect(s.signedAt).toHaveLength(1);
    expect(await res.text()).toBe(CONFLICT);
  });

  it('a success after the re-sign is what comes back', async () => {
    const s = scripted([() => new Response(REUSED, { status: 409 }), () => new Response('{"status":true}')]);
    const res = await resignOnReuse(s.send, { now: s.now });
    expect(s.signedAt).toHaveLength(2);
    expect(await res.text()).toBe('{"status":true}');
  });

  it('an aborted wait rejects with the signal reason and sends nothing more', async () => {
    const s = scripted([() => new Response(REUSED, { status: 409 })]);
    const signal = AbortSignal.abort(new Error('stopped'));
    await expect(resignOnReuse(s.send, { now: s.now, signal })).rejects.toThrow('stopped');
    expect(s.signedAt).toHaveLength(1);
  });
});
