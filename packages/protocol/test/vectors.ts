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

/** The repository's vectors folder (top-level `vectors/`): every signer in the repository is held to it. */
export const VECTORS_DIR = fileURLToPath(new URL('../../../vectors/', import.meta.url));

export function readVectorFile<T>(name: string): T {
  return JSON.parse(readFileSync(`${VECTORS_DIR}${name}`, 'utf8')) as T;
}

/** The signing vectors, read from the repository's own copy. */
export function loadSigningVectors(): SigningCase[] {
  const doc = readVectorFile<{ cases: SigningCase[] }>('signing.json');
  if (!Array.isArray(doc.cases) || doc.cases.length === 0) throw new Error(`no cases in ${VECTORS_DIR}signing.json`);
  return doc.cases;
}
