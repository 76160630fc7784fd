/**
 * A signed write is accepted once (SIGNATURE_REUSED, auth/single-use.ts), and timestamps are
 * whole seconds: a test that makes the same write twice in one second signs the second a second
 * later, as a merchant's client must (well inside the ±60 s window). Signatures given out are
 * remembered for the test file's process.
 */
const given = new Set<string>();

export function freshWriteSignature(
  apiKey: string,
  timestamp: string,
  signAt: (timestamp: string) => string,
): { timestamp: string; signature: string } {
  let signature = signAt(timestamp);
  for (let n = 0; n < 120 && given.has(`${apiKey} ${signature}`); n++) {
    timestamp = String(Number(timestamp) + 1);
    signature = signAt(timestamp);
  }
  given.add(`${apiKey} ${signature}`);
  return { timestamp, signature };
}
