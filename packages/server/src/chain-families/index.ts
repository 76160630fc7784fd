import { btc } from './btc/index.js';
import { evm } from './evm/index.js';
import type { ChainFamily } from './family.js';
import { tron } from './tron/index.js';

export type { ChainFamily, ChainNetwork } from './family.js';

/**
 * The chain families this build has, by the name `chains.family` stores (and the API and CLI
 * show). Adding a family is its folder and one line here.
 */
export const FAMILIES = {
  btc,
  evm,
  tron,
} as const satisfies Record<string, ChainFamily>;

export type FamilyName = keyof typeof FAMILIES;
export const FAMILY_NAMES = Object.keys(FAMILIES) as FamilyName[];

export const isFamilyName = (name: string): name is FamilyName => Object.hasOwn(FAMILIES, name);

/** The family of that name; undefined for a name this build does not have. */
export const findFamily = (name: string): ChainFamily | undefined => (isFamilyName(name) ? FAMILIES[name] : undefined);

/** The family of a stored chain, whose name the catalog checked when the chain was added. */
export function familyOf(name: string): ChainFamily {
  const family = findFamily(name);
  if (family === undefined) throw new Error(`chain family ${JSON.stringify(name)} is not one this build has`);
  return family;
}

/** The family whose nodes an adapter kind talks to. */
export const familyOfKind = (kind: string): ChainFamily | undefined =>
  Object.values(FAMILIES).find((f: ChainFamily) => f.adapterKinds.includes(kind));

/** The names for a description: "btc, evm or tron" (`joiner` ' | ': "btc | evm | tron"). */
export const familyNamesText = (joiner?: string): string =>
  joiner === undefined
    ? `${FAMILY_NAMES.slice(0, -1).join(', ')} or ${FAMILY_NAMES.at(-1)}`
    : FAMILY_NAMES.join(joiner);

/** "btc 2, evm 12, tron 19": each family's default confirmations, for a description. */
export const defaultConfirmationsText = (): string =>
  FAMILY_NAMES.map((n) => `${n} ${FAMILIES[n].defaultConfirmations}`).join(', ');
