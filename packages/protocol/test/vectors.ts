import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface SigningCase {
  name: string;
  secret: string;
  timestamp: string;
  rawBody: string;
  signedString: string;
  signature: string;
}

/** The shared signing vectors, read from ../shared so every signer is held to the same file. */
export function loadSigningVectors(): SigningCase[] {
  const path = fileURLToPath(new URL('../../../../shared/vectors/signing.json', import.meta.url));
  const doc = JSON.parse(readFileSync(path, 'utf8')) as { cases: SigningCase[] };
  if (!Array.isArray(doc.cases) || doc.cases.length === 0) throw new Error(`no cases in ${path}`);
  return doc.cases;
}
