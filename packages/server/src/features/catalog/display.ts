/**
 * How many fractional digits a payer is asked to send in an asset: its precision, at most
 * PAYER_DECIMALS. An ETH amount of 18 places ("0.00806451612903225") cannot be read or typed; 8
 * places is a hundred-millionth of a coin, below any fee, and is what wallets and exchanges show.
 * Checkout pricing rounds `amountDue` *up* to it once (checkouts/pricing.ts), so the page, the
 * payment URI and the detection tolerance all use the figure the payer copies.
 */
export const PAYER_DECIMALS = 8;

export function displayDecimals(assetDecimals: number): number {
  return Math.min(assetDecimals, PAYER_DECIMALS);
}
