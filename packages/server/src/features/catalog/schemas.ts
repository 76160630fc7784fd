import { defaultConfirmationsText, familyNamesText } from '../../chain-families/index.js';
import { Type } from '@sinclair/typebox';
import { Currency } from '../../admin/schemas.js';
import { Nullable, obj, Time } from '../../admin/views.js';

// What this feature's admin answers carry (each is trimmed to its schema before it is written),
// and the bodies it takes. Semantic rules (families, ranges, contract formats) are checked by the
// service, so that they are refused with a message naming the field and what it accepts.

const SymbolText = Type.String({ description: 'upper case, e.g. USDT' });

export const AssetView = obj({
  id: Type.String(),
  symbol: SymbolText,
  name: Type.String(),
  image: Type.String({ description: 'file name of the icon, e.g. usdt.png' }),
  precision: Type.Integer({ description: 'decimal places of amounts in this asset (0 to 18); fees are rounded to it' }),
  isCrypto: Type.Boolean(),
  active: Type.Boolean({ description: 'false: no new wallets (or checkout options) in this asset' }),
});

export const AccountKeySummary = obj(
  {
    id: Type.String(),
    preview: Type.String({
      description: 'the first 12 and last 6 characters; the whole key is on GET /chains/{symbol}/xpub',
    }),
    fingerprint: Type.String({
      description: "BIP-32 fingerprint of the account key (8 hex digits), to compare with the wallet's",
    }),
    nextIndex: Type.Integer({ description: 'the index the next deposit address gets' }),
  },
  'the extended public key deposit addresses are derived from',
);

export const ChainView = obj({
  id: Type.String(),
  symbol: SymbolText,
  name: Type.String(),
  family: Type.String({
    description: `${familyNamesText(' | ')}: how addresses are derived and spelled (fixed after creation)`,
  }),
  networkType: Type.String({ description: 'mainnet | testnet | regtest' }),
  confirmationsRequired: Type.Integer({ description: 'confirmations a payment needs before it counts' }),
  active: Type.Boolean({ description: 'false: no new wallets (or checkout options) on this chain' }),
  explorerTxUrl: Nullable(
    Type.String({
      description:
        "block explorer link template for a transaction ({tx} is the hash): the payment page's Paid screen links each payment there; null: no link",
    }),
  ),
  accountKey: Nullable(AccountKeySummary),
});

export const XpubView = obj({
  chain: Type.String(),
  family: Type.String(),
  networkType: Type.String(),
  accountKeyId: Type.String(),
  xpub: Type.String({
    description: 'the account key in its xpub/tpub form (a zpub/vpub is stored as the same key in that form)',
  }),
  fingerprint: Type.String(),
  nextIndex: Type.Integer(),
  chains: Type.Array(Type.String(), {
    description: 'every chain deriving from this key; they share its address counter',
  }),
  createdAt: Time,
});

export const CatalogNetworkView = obj({
  id: Type.String(),
  asset: Type.String(),
  chain: Type.String(),
  name: Type.String({ description: 'e.g. ERC20, TRC20, Bitcoin' }),
  tokenContract: Nullable(Type.String({ description: 'EVM: EIP-55 0x address; TRON: T… address' })),
  depositEnabled: Type.Boolean(),
});

export const DepositAddressView = obj({
  id: Type.String(),
  address: Type.String(),
  chain: Type.String(),
  index: Type.Integer({ description: 'derivation index under the account key: <key>/0/index' }),
  accountKeyId: Type.String(),
  checkoutId: Nullable(Type.String()),
  optionId: Nullable(Type.String()),
  createdAt: Time,
});

// --- bodies and parameters ---------------------------------------------------------------

const ChainSymbol = (what: string) =>
  Type.String({ pattern: '^[A-Za-z0-9]{2,12}$', description: `${what}: chain symbol, case-insensitive (e.g. ETH)` });
const Name = Type.String({ minLength: 1, maxLength: 100, description: 'display name, 1-100 characters' });
const Image = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'icon file name, e.g. usdt.png (default <symbol>.png)',
});
const Precision = Type.Integer({ description: 'decimal places, 0 to 18' });
const Family = Type.String({ minLength: 1, maxLength: 16, description: familyNamesText() });
const NetworkType = Type.String({
  minLength: 1,
  maxLength: 16,
  description: 'mainnet, testnet or regtest (default mainnet)',
});
const Confirmations = Type.Integer({
  description: `confirmations required, 1 to 1000 (default by family: ${defaultConfirmationsText()})`,
});
const ExplorerTxUrl = Nullable(
  Type.String({
    minLength: 1,
    maxLength: 300,
    description:
      'https URL template of a block explorer transaction page, {tx} where the hash goes (e.g. https://tronscan.org/#/transaction/{tx}); null: no link (default)',
  }),
);
const TokenContract = Nullable(
  Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'EVM: 0x + 40 hex (stored EIP-55); TRON: T… base58check; null: the native coin',
  }),
);
const closed = { additionalProperties: false } as const;
const change = (what: string) => ({
  additionalProperties: false,
  minProperties: 1,
  description: `fields of the ${what} to change`,
});

export const AssetParams = Type.Object({ symbol: Currency('asset') }, closed);
export const ChainParams = Type.Object({ symbol: ChainSymbol('chain') }, closed);

export const AssetCreateBody = Type.Object(
  {
    symbol: Currency('new asset'),
    name: Name,
    image: Type.Optional(Image),
    precision: Precision,
    isCrypto: Type.Optional(Type.Boolean({ description: 'default true' })),
    active: Type.Optional(Type.Boolean({ description: 'default true' })),
  },
  closed,
);
export const AssetUpdateBody = Type.Object(
  {
    name: Type.Optional(Name),
    image: Type.Optional(Image),
    precision: Type.Optional(Precision),
    isCrypto: Type.Optional(Type.Boolean()),
    active: Type.Optional(Type.Boolean()),
  },
  change('asset'),
);

export const ChainCreateBody = Type.Object(
  {
    symbol: ChainSymbol('new chain'),
    name: Name,
    family: Family,
    networkType: Type.Optional(NetworkType),
    confirmationsRequired: Type.Optional(Confirmations),
    active: Type.Optional(Type.Boolean({ description: 'default true' })),
    explorerTxUrl: Type.Optional(ExplorerTxUrl),
  },
  closed,
);
export const ChainUpdateBody = Type.Object(
  {
    name: Type.Optional(Name),
    family: Type.Optional(
      Type.String({ maxLength: 16, description: 'fixed after creation: accepted only when unchanged' }),
    ),
    networkType: Type.Optional(NetworkType),
    confirmationsRequired: Type.Optional(Confirmations),
    active: Type.Optional(Type.Boolean()),
    explorerTxUrl: Type.Optional(ExplorerTxUrl),
  },
  change('chain'),
);

export const XpubBody = Type.Object(
  {
    xpub: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        "account-level extended public key: xpub/tpub, or zpub/vpub for BTC (BIP-84 m/84'/coin'/0'); EVM m/44'/60'/0', TRON m/44'/195'/0'",
    }),
  },
  closed,
);

export const NetworkCreateBody = Type.Object(
  {
    asset: Currency('asset'),
    chain: ChainSymbol('chain'),
    name: Name,
    tokenContract: Type.Optional(TokenContract),
    depositEnabled: Type.Optional(Type.Boolean({ description: 'default true' })),
  },
  closed,
);
export const NetworkUpdateBody = Type.Object(
  {
    name: Type.Optional(Name),
    tokenContract: Type.Optional(TokenContract),
    depositEnabled: Type.Optional(Type.Boolean()),
  },
  change('network'),
);
