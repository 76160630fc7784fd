import { decimalText, parseAmount } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { checkCustomerEmail, checkReturnUrl } from '../checkouts/create-input.js';
import type { CheckoutService } from '../checkouts/service.js';
import { countsOf, NO_COUNTS } from './queries.js';
import type { PaymentLinkTable } from './tables.js';
import { linkPath, unavailable } from './view.js';

export interface PayInput {
  link: PaymentLinkTable;
  decimals: number;
  /** The form's nonce (http/public-form.ts): the idempotency key of this submit. */
  nonce: string;
  amount?: string | undefined;
  email?: string | undefined;
  /**
   * Counts this create against the link's limits (per address, link and merchant): seconds to
   * wait, or null. Asked only for a create that would happen: a resubmit or a typo costs nothing.
   */
  admit: () => Promise<number | null>;
}

interface PayDeps {
  store: Store;
  checkouts: CheckoutService;
  publicBaseUrl: () => string;
  sandbox: boolean;
  now: () => number;
}

/** The checkout an earlier submit of this nonce made (written in that checkout's own commit). */
async function madeBy(store: Store, nonce: string): Promise<string | undefined> {
  const row = await store.db
    .selectFrom('payment_link_submissions')
    .select(['checkout_id'])
    .where('nonce', '=', nonce)
    .executeTakeFirst();
  return row?.checkout_id ?? undefined;
}

const unavailableError = (reason: NonNullable<ReturnType<typeof unavailable>>) =>
  new HostpayError('PAYMENT_LINK_UNAVAILABLE', `payment link is ${reason.replace('_', ' ')}`, { reason });

/** What is wrong with a typed amount, for the page to say in the payer's language. */
export type AmountProblem = 'missing' | 'not_number' | 'too_precise' | 'below' | 'above';

const amountRefused = (problem: AmountProblem, message: string) =>
  new HostpayError('INVALID_AMOUNT', message, { field: 'amount', problem });

/** The amount the payer pays: the link's price, or the typed one within its bounds. */
function amountOf(link: PaymentLinkTable, decimals: number, typed: string | undefined): string {
  if (link.amount !== null) return decimalText(link.amount);
  if (typed === undefined || typed.trim() === '')
    throw amountRefused('missing', `Enter the amount to pay in ${link.currency}.`);
  const parsed = parseAmount(typed.trim());
  if (!parsed.ok) throw amountRefused('not_number', `amount ${parsed.reason}`);
  if (parsed.value.decimalPlaces() > decimals)
    throw amountRefused('too_precise', `amount must have at most ${decimals} decimal places`);
  const value = parsed.value;
  if (link.min_amount !== null && value.lt(link.min_amount))
    throw amountRefused('below', `The amount must be at least ${decimalText(link.min_amount)} ${link.currency}.`);
  if (link.max_amount !== null && value.gt(link.max_amount))
    throw amountRefused('above', `The amount must be at most ${decimalText(link.max_amount)} ${link.currency}.`);
  return decimalText(value);
}

function emailOf(link: PaymentLinkTable, typed: string | undefined): string | null {
  if (link.collect_email === 'none') return null;
  const text = typed?.trim() ?? '';
  if (text === '') {
    if (link.collect_email === 'required')
      throw new HostpayError(
        'CUSTOMER_EMAIL_MISSING',
        'Enter your email address: the merchant needs it for this payment.',
        { field: 'email' },
      );
    return null;
  }
  return checkCustomerEmail(text, 'email');
}

/**
 * Makes the checkout of one submit of the link's form. The guard runs in the create's write
 * transaction: it locks the link row (PostgreSQL; SQLite's writes are serial), reads the link
 * again, counts its settled and live checkouts against `maxUses`, and records the nonce with the new
 * checkout's id in the same commit, so two payers never take the last use together and a second
 * submit of one form (even after a crash) finds the checkout the first one made.
 */
export async function payLink(deps: PayDeps, input: PayInput): Promise<{ checkoutId: string; replay: boolean }> {
  const { link } = input;
  const earlier = await madeBy(deps.store, input.nonce);
  if (earlier !== undefined) return { checkoutId: earlier, replay: true };
  // An unavailable link says so first (410), whatever else the form holds; the guard checks again
  // in the create's transaction.
  const { taken } = (await countsOf(deps.store.db, [link.id])).get(link.id) ?? NO_COUNTS;
  const closed = unavailable(link, taken, deps.now());
  if (closed !== null) throw unavailableError(closed);
  const amount = amountOf(link, input.decimals, input.amount);
  const customerEmail = emailOf(link, input.email);
  const wait = await input.admit();
  if (wait !== null)
    throw new HostpayError('RATE_LIMITED', `Too many payments were started: wait ${wait} seconds, then try again.`, {
      resetSeconds: wait,
    });
  const base = deps.publicBaseUrl();
  let cancelUrl = link.cancel_url;
  if (cancelUrl === null) {
    try {
      cancelUrl = checkReturnUrl('cancelUrl', `${base}${linkPath(link.slug)}`, deps.sandbox);
    } catch {
      cancelUrl = null; // A base URL a checkout cannot return to (plain http outside a sandbox): none.
    }
  }
  let duplicate = false;
  try {
    const checkout = await deps.checkouts.createFrom(
      link.merchant_id,
      {
        amount,
        currency: link.currency,
        description: (link.description ?? link.name).slice(0, 500),
        metadata: JSON.parse(link.metadata) as Record<string, string>,
        ...(link.payment_options === null ? {} : { paymentOptions: JSON.parse(link.payment_options) }),
        ...(link.success_url === null ? {} : { successUrl: link.success_url }),
        ...(cancelUrl === null ? {} : { cancelUrl }),
        ...(customerEmail === null ? {} : { customerEmail }),
      },
      {
        origin: { paymentLinkId: link.id },
        guard: async (trx, checkoutId) => {
          if (deps.store.dialect === 'postgres')
            await trx.selectFrom('payment_links').select('id').where('id', '=', link.id).forUpdate().execute();
          const seen = await trx
            .selectFrom('payment_link_submissions')
            .select('nonce')
            .where('nonce', '=', input.nonce)
            .executeTakeFirst();
          if (seen !== undefined) {
            duplicate = true;
            throw new HostpayError('IDEMPOTENCY_CONFLICT', 'this form was already sent');
          }
          const fresh = await trx
            .selectFrom('payment_links')
            .selectAll()
            .where('id', '=', link.id)
            .executeTakeFirstOrThrow();
          const now = (await countsOf(trx, [link.id])).get(link.id) ?? NO_COUNTS;
          const reason = unavailable(fresh, now.taken, deps.now());
          if (reason !== null) throw unavailableError(reason);
          await trx
            .insertInto('payment_link_submissions')
            .values({
              nonce: input.nonce,
              payment_link_id: link.id,
              checkout_id: checkoutId,
              created_at: new Date(deps.now()).toISOString(),
            })
            .execute();
        },
      },
    );
    return { checkoutId: checkout.id, replay: false };
  } catch (err) {
    if (!duplicate) throw err;
    const id = await madeBy(deps.store, input.nonce);
    if (id === undefined) throw err;
    return { checkoutId: id, replay: true };
  }
}
