import { Decimal } from '@hostpay/protocol';
import type { AdminBackend, ApiKey, FeeTier, Merchant, WalletSummary } from '../admin/backend.js';
import type { Chain } from '../admin/catalog-backend.js';
import { UsageError } from '../output.js';
import { normaliseXpub } from './init-xpub.js';

/**
 * `hostpay init` in two halves: `planInit` only reads (the catalog, the merchant and what it
 * already has) and checks every input, so a bad flag fails before anything is written; the plan's
 * `apply` then writes the missing pieces through the same admin API calls the single commands make.
 */
export type Outcome = 'created' | 'exists' | 'updated';
export type StepKind = 'xpub' | 'merchant' | 'wallet' | 'fee' | 'rate-source' | 'watch' | 'key';

export interface Step {
  step: StepKind;
  /** What the step is about: a chain, ASSET/CHAIN, a currency, a source id, the merchant's name. */
  subject: string;
  outcome: Outcome;
  /** The object's id once known (null for a merchant or key still to be created in a dry run). */
  id: string | null;
}

export interface FeeSpec {
  currency: string;
  isPercentage: boolean;
  value: string;
  min: string;
  onChainFee: string;
}

export interface InitRequest {
  merchantId?: string | undefined;
  name?: string | undefined;
  /** Chain symbol → the key as given. */
  xpubs: Map<string, string>;
  wallets: { asset: string; chain: string }[];
  fees: FeeSpec[];
  /** Fees into the default schedule instead of the merchant's own. */
  feesDefault: boolean;
  rateSources: { kind: string; pairs: string[] }[];
  /** Chain symbol → node URL. */
  watches: Map<string, string>;
  allowPrivateRpc: boolean;
  scopes: string[];
  keyLabel: string;
  newKey: boolean;
}

/** A value the flags left out: asked for on a terminal, else a usage error naming the flag. */
export type Need = (flag: string, question: string) => Promise<string>;

interface Action extends Step {
  apply?: () => Promise<string>;
}

export interface InitPlan {
  steps: Step[];
  /** Writes what is missing; returns the outcomes with ids, and the new key's secret when one was created. */
  apply(): Promise<{ steps: Step[]; merchantId: string; key: { id: string; secret: string | null } }>;
}

const w = {}; // one fresh Idempotency-Key per write (the remote backend's default)

async function findMerchant(b: AdminBackend, req: InitRequest, need: Need): Promise<Merchant | string> {
  if (req.merchantId !== undefined) return b.merchants.get(req.merchantId);
  const name = req.name ?? (await need('--name', 'the merchant name')).trim();
  if (name === '') throw new UsageError('--name: the merchant name is empty');
  const found: Merchant[] = [];
  let cursor: string | undefined;
  do {
    const page = await b.merchants.list({ limit: 200, cursor });
    found.push(...page.items.filter((m) => m.name === name));
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  if (found.length > 1)
    throw new UsageError(
      `${found.length} merchants are named ${JSON.stringify(name)} (${found.map((m) => m.id).join(', ')}): pass --merchant ID`,
    );
  return found[0] ?? name;
}

/** What every step builder needs: the backend, the request, the merchant's id once known. */
interface Ctx {
  b: AdminBackend;
  req: InitRequest;
  merchantId(): string;
  chainOf(symbol: string, flag: string): Chain;
}

export async function planInit(b: AdminBackend, req: InitRequest, need: Need): Promise<InitPlan> {
  const chains = new Map((await b.catalog.chains.list()).map((c) => [c.symbol, c]));
  const merchant = await findMerchant(b, req, need);
  const existing = typeof merchant === 'string' ? null : merchant;
  let merchantId = existing?.id ?? '';
  const ctx: Ctx = {
    b,
    req,
    merchantId: () => merchantId,
    chainOf(symbol, flag) {
      const chain = chains.get(symbol);
      if (chain === undefined)
        throw new UsageError(`${flag}: no chain ${symbol} (hostpay chain list: ${[...chains.keys()].join(', ')})`);
      return chain;
    },
  };
  const haveWallets = existing === null ? [] : await listAll((cursor) => b.wallets.list({ merchantId, cursor }));
  if (req.wallets.length === 0 && haveWallets.length === 0) await askWallets(ctx, need);
  await checkWallets(ctx);
  // Every chain a wallet is on needs the key its deposit addresses come from.
  for (const symbol of new Set(req.wallets.map((x) => x.chain))) {
    if (chains.get(symbol)?.accountKey === null && !req.xpubs.has(symbol))
      req.xpubs.set(symbol, (await need(`--xpub ${symbol}=KEY`, `the account xpub of chain ${symbol}`)).trim());
  }
  const name = existing?.name ?? (merchant as string);
  const actions: Action[] = [
    ...(await xpubActions(ctx)),
    {
      step: 'merchant',
      subject: name,
      outcome: existing === null ? 'created' : 'exists',
      id: existing?.id ?? null,
      ...(existing === null ? { apply: async () => (await b.merchants.create(name, w)).id } : {}),
    },
    ...walletActions(ctx, haveWallets),
    ...(await feeActions(ctx)),
    ...(await rateSourceActions(ctx)),
    ...(await watchActions(ctx)),
  ];
  const keys: ApiKey[] = existing === null ? [] : (await b.keys.list({ merchantId, status: 'active', limit: 1 })).items;
  const keyAction: Action = {
    step: 'key',
    subject: req.keyLabel,
    outcome: keys.length === 0 || req.newKey ? 'created' : 'exists',
    id: req.newKey ? null : (keys[0]?.id ?? null),
  };

  return {
    steps: [...actions, keyAction].map(stepOf),
    async apply() {
      const steps: Step[] = [];
      for (const action of actions) {
        if (action.apply !== undefined) action.id = await action.apply();
        if (action.step === 'merchant') merchantId = action.id as string;
        steps.push(stepOf(action));
      }
      let secret: string | null = null;
      if (keyAction.outcome === 'created') {
        const created = await b.keys.create(merchantId, { scopes: req.scopes as never, label: req.keyLabel }, w);
        keyAction.id = created.id;
        secret = created.apiSecret;
      }
      steps.push(stepOf(keyAction));
      return { steps, merchantId, key: { id: keyAction.id as string, secret } };
    },
  };
}

async function askWallets({ req }: Ctx, need: Need): Promise<void> {
  const answer = await need('--wallet', 'the wallets to enable, ASSET/CHAIN separated by commas (e.g. USDT/TRON)');
  req.wallets = answer
    .split(',')
    .filter((s) => s.trim() !== '')
    .map(parseWallet);
  if (req.wallets.length === 0) throw new UsageError('--wallet: at least one ASSET/CHAIN is needed');
}

async function checkWallets({ b, req, chainOf }: Ctx): Promise<void> {
  for (const wallet of req.wallets) {
    const what = `${wallet.asset}/${wallet.chain}`;
    chainOf(wallet.chain, `--wallet ${what}`);
    const networks = await b.catalog.networks.list({ asset: wallet.asset, chain: wallet.chain });
    if (networks.length === 0)
      throw new UsageError(
        `--wallet ${what}: ${wallet.asset} has no network on ${wallet.chain} (hostpay asset networks ${wallet.asset})`,
      );
  }
}

async function xpubActions({ b, req, chainOf }: Ctx): Promise<Action[]> {
  const actions: Action[] = [];
  for (const [symbol, key] of req.xpubs) {
    const chain = chainOf(symbol, `--xpub ${symbol}`);
    const normal = normaliseXpub(key);
    if (normal === null)
      throw new UsageError(
        `--xpub ${symbol}: not an extended public key (xpub/zpub, tpub/vpub on test networks; see hostpay chain set-xpub --help)`,
      );
    // The server shows the key in its xpub/tpub spelling: a zpub given again is the same key.
    const current = chain.accountKey === null ? null : await b.catalog.chains.xpub(symbol);
    const same = current?.xpub === normal;
    actions.push({
      step: 'xpub',
      subject: symbol,
      outcome: current === null ? 'created' : same ? 'exists' : 'updated',
      id: current?.accountKeyId ?? null,
      ...(same ? {} : { apply: async () => (await b.catalog.chains.setXpub(symbol, key.trim(), w)).accountKeyId }),
    });
  }
  return actions;
}

function walletActions({ b, req, merchantId }: Ctx, haveWallets: WalletSummary[]): Action[] {
  return req.wallets.map(({ asset, chain }) => {
    const have = haveWallets.find((x) => x.asset === asset && x.chain === chain);
    const apply = async () =>
      have === undefined
        ? (await b.wallets.create({ merchantId: merchantId(), asset, chain, active: true }, w)).id
        : (await b.wallets.setActive(have.id, true, w)).id;
    return {
      step: 'wallet',
      subject: `${asset}/${chain}`,
      outcome: have === undefined ? 'created' : have.active ? 'exists' : 'updated',
      id: have?.id ?? null,
      ...(have?.active === true ? {} : { apply }),
    };
  });
}

async function feeActions({ b, req, merchantId }: Ctx): Promise<Action[]> {
  // A merchant still to be created has no schedule of its own yet.
  const listed = req.fees.length > 0 && (req.feesDefault || merchantId() !== '');
  const tiers: FeeTier[] = listed ? await b.fees.list({ merchantId: req.feesDefault ? '' : merchantId() }) : [];
  return req.fees.map((fee) => {
    const have = tiers.find((t) => t.currency === fee.currency && new Decimal(t.fromAmount).isZero());
    const same =
      have !== undefined &&
      have.isPercentage === fee.isPercentage &&
      new Decimal(have.value).eq(fee.value) &&
      new Decimal(have.minValue).eq(fee.min) &&
      new Decimal(have.onChainFee).eq(fee.onChainFee);
    const tier = {
      currency: fee.currency,
      isPercentage: fee.isPercentage,
      value: fee.value,
      minValue: fee.min,
      onChainFee: fee.onChainFee,
    };
    const apply = async () =>
      (await b.fees.set({ ...tier, merchantId: req.feesDefault ? undefined : merchantId() }, w)).id;
    return {
      step: 'fee',
      subject: `${fee.currency} (${req.feesDefault ? 'default schedule' : 'merchant schedule'})`,
      outcome: have === undefined ? 'created' : same ? 'exists' : 'updated',
      id: have?.id ?? null,
      ...(same ? {} : { apply }),
    };
  });
}

async function rateSourceActions({ b, req }: Ctx): Promise<Action[]> {
  const sources = req.rateSources.length === 0 ? [] : await b.rates.sources.list();
  return req.rateSources.map((source) => {
    const have = sources.find((s) => s.id === source.kind);
    // Never drops a pair the source already feeds: init only adds.
    const pairs = [...new Set([...(have?.pairs ?? []), ...source.pairs])];
    const same = have !== undefined && have.kind === source.kind && pairs.length === have.pairs.length;
    const apply = async () => (await b.rates.sources.set(source.kind, { kind: source.kind, pairs }, w)).id;
    return {
      step: 'rate-source',
      subject: `${source.kind} ${source.pairs.join(',')}`,
      outcome: have === undefined ? 'created' : same ? 'exists' : 'updated',
      id: source.kind,
      ...(same ? {} : { apply }),
    };
  });
}

async function watchActions({ b, req, chainOf }: Ctx): Promise<Action[]> {
  const watched = req.watches.size === 0 ? [] : await b.catalog.chains.watches();
  return [...req.watches].map(([symbol, url]) => {
    chainOf(symbol, `--watch ${symbol}`);
    // An existing watch is kept as it is (its URL is stored sealed): hostpay chain watch changes it.
    const have = watched.some((x) => x.chain === symbol);
    const settings = { rpcUrl: url, allowPrivateRpc: req.allowPrivateRpc || undefined };
    const apply = async () => (await b.catalog.chains.watch(symbol, settings, w)).chain;
    return {
      step: 'watch',
      subject: symbol,
      outcome: have ? 'exists' : 'created',
      id: symbol,
      ...(have ? {} : { apply }),
    };
  });
}

const stepOf = ({ step, subject, outcome, id }: Action): Step => ({ step, subject, outcome, id });

async function listAll<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>) {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const p = await page(cursor);
    all.push(...p.items);
    cursor = p.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return all;
}

/** `USDT/TRON`: an asset on a chain, as `checkout create --option` spells it. */
export function parseWallet(text: string): { asset: string; chain: string } {
  const m = /^\s*([A-Za-z0-9]{1,12})\/([A-Za-z0-9]{1,12})\s*$/.exec(text);
  if (!m) throw new UsageError(`--wallet ${text}: write ASSET/CHAIN, e.g. USDT/TRON`);
  return { asset: m[1]!.toUpperCase(), chain: m[2]!.toUpperCase() };
}
