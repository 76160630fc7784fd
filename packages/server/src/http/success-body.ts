import { writeExactJson } from '@hostpay/protocol';

/** The success envelope of interface §2.1, as JSON text with exact decimals. */
export function successBody(result: unknown, message = 'OK'): string {
  return writeExactJson({ status: true, message, isSuccess: true, result });
}

/** A list page's envelope as JSON text with exact decimals. */
export function successPageBody(items: unknown[], nextCursor: string | null, message = 'OK'): string {
  return writeExactJson({ status: true, message, isSuccess: true, result: items, nextCursor });
}

/** The success envelope around finished JSON text of `result` (and `nextCursor` for lists). */
export function envelopeJson(resultJson: string, message = 'OK', nextCursor?: string | null): string {
  const cursor = nextCursor === undefined ? '' : `,"nextCursor":${JSON.stringify(nextCursor)}`;
  return `{"status":true,"message":${JSON.stringify(message)},"isSuccess":true,"result":${resultJson}${cursor}}`;
}
