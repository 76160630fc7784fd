import type { Insertable } from 'kysely';
import type { DepositAddressTable } from '../addresses/tables.js';
import type { IndexBlocks } from '../addresses/index-blocks.js';
import type { LoadedCheckout } from './queries.js';

// The types a create passes between create.ts, price-offer.ts and create-batch.ts, apart from
// them so that none of the three imports another only for a type (no import loops).

/** A candidate option: an asset on a chain, with what the catalog says about it. */
export interface Candidate {
  asset: string;
  chain: string;
  assetId: string;
  assetDecimals: number;
  chainRow: {
    id: string;
    symbol: string;
    family: string;
    network_type: string;
    account_key_id: string | null;
    confirmations_required: number;
  };
  networkId: string;
  networkName: string;
  tokenContract: string | null;
}

/** The payable options of a request and why the others were refused: what `candidates` found. */
export interface Offer {
  offer: Candidate[];
  refused: string[];
}

/** A merchant's terms a new checkout is priced and judged with. */
export interface MerchantTerms {
  /** Underpayment tolerance, percent (copied onto each new checkout). */
  percent: string;
  /** The rate spread, percent: the merchant's own, else the operator's default, else 0. */
  spreadPercent: string;
  /** The merchant's default return URLs (dashboard settings): used when a request names none. */
  successUrl: string | null;
  cancelUrl: string | null;
}

/** A new checkout, and its view as exact JSON: written once, for the `checkout.created` event and the answer. */
export interface CreatedCheckout {
  checkout: LoadedCheckout;
  json: string;
}

/** A create's rows, built before they are written: what a batch writes (create-batch.ts). */
export interface BuiltCheckout extends CreatedCheckout {
  addresses: Insertable<DepositAddressTable>[];
  at: string;
}

/** Where a PostgreSQL create's rows go instead of a transaction of their own (create-batch.ts). */
export interface CreateBatch {
  indices: IndexBlocks;
  write(built: BuiltCheckout): Promise<void>;
}
