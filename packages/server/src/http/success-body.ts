import { writeExactJson } from '@hostpay/protocol';

/** The success envelope of interface §2.1, as JSON text with exact decimals. */
export function successBody(result: unknown, message = 'OK'): string {
  return writeExactJson({ status: true, message, isSuccess: true, result });
}
