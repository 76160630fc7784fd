import { Type } from '@sinclair/typebox';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import { READ, WRITE } from '../../admin/schemas.js';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { ChainParams } from '../catalog/schemas.js';
import type { WatchAdmin } from './service.js';
import { MAX_POLL_MS, MIN_POLL_MS } from './config.js';

const Nullable = <T extends ReturnType<typeof Type.String | typeof Type.Integer>>(t: T) => Type.Union([t, Type.Null()]);
const closed = { additionalProperties: false };
const Kind = Type.Union(
  [Type.Literal('evm-rpc'), Type.Literal('esplora'), Type.Literal('bitcoin-core'), Type.Literal('tron-http')],
  { description: "the adapter that talks to the node; default by the chain's family (evm-rpc, esplora, tron-http)" },
);
const Token = Type.Object(
  {
    asset: Type.String(),
    contract: Type.String({ description: 'lower-case 0x address (EVM), base58 T… address (TRON)' }),
    decimals: Type.Integer(),
  },
  closed,
);
export const WatchView = Type.Object(
  {
    chain: Type.String(),
    kind: Kind,
    rpcUrl: Type.String({ description: 'masked: user info, query values and key-like path segments are ***' }),
    apiKeySet: Type.Boolean({ description: 'an API key is stored (sealed; never shown)' }),
    networkId: Nullable(
      Type.String({
        description:
          'the network the node must serve: EVM chain id in decimal, or genesis block hash; null until the first round learns it',
      }),
    ),
    tokens: Type.Array(Token),
    nativeAsset: Nullable(
      Type.String({ description: "the chain's own coin, watched by scanning blocks; null: tokens only" }),
    ),
    nativeDecimals: Type.Integer(),
    confirmations: Type.Integer({ description: "the chain's confirmationsRequired" }),
    pollIntervalMs: Type.Integer(),
    allowPrivateRpc: Type.Boolean(),
    enabled: Type.Boolean(),
    startBlock: Nullable(Type.Integer()),
    status: Type.Object(
      {
        state: Type.Union(
          [
            Type.Literal('watching'),
            Type.Literal('standby'),
            Type.Literal('error'),
            Type.Literal('failing'),
            Type.Literal('stopped'),
          ],
          {
            description:
              'watching: an instance holds the lease and its rounds succeed; error: its last round failed on a node error (see lastError); failing: failedRounds reached HOSTPAY_CHAIN_WATCH_FAILING_ROUNDS (node errors, or blocks that do not link up: "the chain moved"), payments on the chain are not seen; standby: no instance holds the lease right now',
          },
        ),
        cursorBlock: Nullable(Type.Integer({ description: 'last block fully scanned' })),
        headBlock: Nullable(Type.Integer()),
        blocksBehind: Nullable(Type.Integer()),
        lastRoundAt: Nullable(Type.String()),
        lastError: Nullable(Type.String({ description: 'masked like rpcUrl' })),
        lastErrorAt: Nullable(Type.String()),
        failedRounds: Type.Integer({
          minimum: 0,
          description: 'rounds failed in a row (node errors, blocks that do not link up); 0 after a good round',
        }),
        leaseHolder: Nullable(Type.String({ description: 'the instance watching the chain now' })),
      },
      closed,
    ),
    createdAt: Type.String(),
    updatedAt: Type.String(),
  },
  closed,
);
const Watches = Type.Array(WatchView);

const WatchBody = Type.Object(
  {
    kind: Type.Optional(Kind),
    rpcUrl: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description:
          "the node's URL (evm-rpc: JSON-RPC; esplora: the API base; bitcoin-core: JSON-RPC; tron-http: the java-tron HTTP API or TronGrid): https:// or wss:// (http/ws to a node on this host or your network with allowPrivateRpc); required the first time, kept when left out. Stored sealed, shown masked, never logged.",
      }),
    ),
    apiKey: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 1024 }), Type.Null()], {
        description:
          "an API key or credentials for the node (TronGrid's key, Bitcoin Core's user:password); stored sealed, never shown or logged; null removes it",
      }),
    ),
    networkId: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 128, pattern: '^[0-9A-Za-z]+$' }), Type.Null()], {
        description:
          'the network the node must serve (EVM chain id in decimal, or the genesis block hash); a node of another network is refused. Default: learnt from the node on the first round',
      }),
    ),
    tokens: Type.Optional(
      Type.Array(
        Type.Object(
          {
            asset: Type.String({ minLength: 2, maxLength: 12 }),
            contract: Type.Optional(
              Type.String({
                pattern: '^(0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33})$',
                description: "default: the network's tokenContract in the catalog",
              }),
            ),
            decimals: Type.Optional(
              Type.Integer({
                minimum: 0,
                maximum: 36,
                description: "the contract's decimals(); default the asset's precision; never more than it",
              }),
            ),
          },
          closed,
        ),
        { maxItems: 50, description: 'default: every network of the chain with a token contract' },
      ),
    ),
    nativeAsset: Type.Optional(
      Type.Union([Type.String({ minLength: 2, maxLength: 12 }), Type.Null()], {
        description:
          "default: the chain's network without a token contract (ETH on Ethereum); null: do not scan blocks for native payments",
      }),
    ),
    nativeDecimals: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 36, description: 'default 18 (EVM), 8 (Bitcoin), 6 (TRON)' }),
    ),
    confirmations: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        description: "sets the chain's confirmationsRequired (checkouts created afterwards)",
      }),
    ),
    pollIntervalMs: Type.Optional(
      Type.Integer({ minimum: MIN_POLL_MS, maximum: MAX_POLL_MS, description: 'default 4000' }),
    ),
    allowPrivateRpc: Type.Optional(
      Type.Boolean({ description: 'allow a node on loopback or a private network (your own node); default false' }),
    ),
    startBlock: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'scan from this block (again); default: the head minus the confirmation depth, the first time',
      }),
    ),
    enabled: Type.Optional(Type.Boolean()),
  },
  closed,
);

const WRITE_ERRORS = [...ERRORS.adminWrite, 'INVALID_URL'] as const;

/** Operators choose which chains hostpay watches by itself, and through which node (docs/chains.md). */
export async function chainWatchAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<WatchAdmin>): Promise<void> {
  app.get(
    '/chain-watches',
    {
      schema: {
        ...READ,
        operationId: 'listChainWatches',
        summary: 'Watched chains with their status',
        description:
          'Every chain the watcher follows: adapter kind, node (masked), tokens, poll interval, and how far it is (cursor, head, last error, which instance holds it).',
        response: responses(200, Watches, 'Every watched chain.', ERRORS.adminRead),
      },
    },
    async (_req, reply) => send(reply, 200, Watches, 'chain watches', await admin.listChainWatches()),
  );

  app.put(
    '/chains/:symbol/watch',
    {
      schema: {
        ...WRITE,
        operationId: 'setChainWatch',
        summary: 'Watch a chain: adapter kind, node, tokens, confirmations, poll interval',
        description:
          'Creates or replaces the watch of a chain (EVM, Bitcoin or TRON, by adapter kind). Fields left out keep their value (or take the default). The node URL passes the same address checks as webhook URLs (no private, link-local or metadata addresses; loopback on a sandbox server; loopback and private networks with allowPrivateRpc). Audited.',
        params: ChainParams,
        body: WatchBody,
        response: responses(200, WatchView, 'The watch as stored.', WRITE_ERRORS),
      },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        WatchView,
        'chain watched',
        await admin.setChainWatch(req.params.symbol, req.body, auditOf(req)),
      ),
  );

  app.get(
    '/chains/:symbol/watch',
    {
      schema: {
        ...READ,
        operationId: 'getChainWatch',
        summary: 'The watch of one chain and its status',
        description: '404 when the chain is not watched.',
        params: ChainParams,
        response: responses(200, WatchView, 'The watch.', ERRORS.adminRead),
      },
    },
    async (req, reply) => send(reply, 200, WatchView, 'chain watch', await admin.getChainWatch(req.params.symbol)),
  );

  app.delete(
    '/chains/:symbol/watch',
    {
      schema: {
        ...WRITE,
        operationId: 'deleteChainWatch',
        summary: 'Stop watching a chain',
        description: 'The watch, its cursor and kept block hashes go; transfers already reported stay. Audited.',
        params: ChainParams,
        response: responses(200, WatchView, 'The watch as it was.', ERRORS.adminWrite),
      },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        WatchView,
        'chain no longer watched',
        await admin.deleteChainWatch(req.params.symbol, auditOf(req)),
      ),
  );
}
