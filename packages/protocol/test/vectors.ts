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

/** A version-2 case: the request's method and target are signed too. */
export interface SigningV2Case extends SigningCase {
  method: string;
  /** The path and query as sent. */
  target: string;
  canonicalTarget: string;
}

/** A POST-body case: the raw body as sent, its compact form, and signatures over both. */
export interface SigningBodyCase extends SigningCase {
  /** The compact re-serialisation of rawBody (what `signedString` carries after the timestamp). */
  compactBody: string;
  /** HMAC of `<timestamp>.<rawBody>`: a signer that hashed exactly what it sent; the server accepts it too. */
  rawSignature: string;
  note: string;
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

/** The version-2 signing vectors (`v2` section of signing.json). */
export function loadSigningV2Vectors(): SigningV2Case[] {
  const doc = readVectorFile<{ v2?: { cases?: SigningV2Case[] } }>('signing.json');
  const cases = doc.v2?.cases;
  if (!Array.isArray(cases) || cases.length === 0) throw new Error(`no v2 cases in ${VECTORS_DIR}signing.json`);
  return cases;
}

/** The POST-body vectors (`bodies` section of signing.json): unicode, escapes, nesting, exact decimals, key order, whitespace. */
export function loadSigningBodyVectors(): SigningBodyCase[] {
  const doc = readVectorFile<{ bodies?: { cases?: SigningBodyCase[] } }>('signing.json');
  const cases = doc.bodies?.cases;
  if (!Array.isArray(cases) || cases.length === 0) throw new Error(`no body cases in ${VECTORS_DIR}signing.json`);
  return cases;
}
