import { describe, expect, it } from 'vitest';
import { signWebhook, webhookHeaders } from '../src/index.js';
import { readVectorFile } from './vectors.js';

interface WebhookCase {
  name: string;
  secret: string;
  msgId: string;
  timestamp: number;
  body: string;
  signatureHeader: string;
  expect: 'accept' | 'reject';
}
const cases = readVectorFile<{ cases: WebhookCase[] }>('webhooks.json').cases;

describe("the server's webhook signer against vectors/webhooks.json", () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const ours = signWebhook(c.secret, c.msgId, c.timestamp, c.body);
    const sent = c.signatureHeader.split(' ');
    // Accepted cases carry our signature; rejected ones do not, except those refused for their age.
    const fresh = !/^timestamp 301/.test(c.name);
    expect(sent.includes(ours), `${c.name}: ${ours}`).toBe(c.expect === 'accept' || !fresh);
  });

  it('a rotation sends one signature per secret, space-separated', () => {
    const [a, b] = cases.filter((c) => c.expect === 'accept' && c.name !== 'second secret').map((c) => c.secret);
    const other = cases.find((c) => c.name === 'second secret')!.secret;
    const h = webhookHeaders([a!, other], 'msg_1', 1795400000, '{}');
    expect(h['webhook-signature'].split(' ')).toEqual([
      signWebhook(a!, 'msg_1', 1795400000, '{}'),
      signWebhook(other, 'msg_1', 1795400000, '{}'),
    ]);
    expect(b).toBeDefined();
  });
});
