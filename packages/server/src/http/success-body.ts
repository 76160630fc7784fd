import { writeExactJson } from '@hostpay/protocol';

/** The success envelope of interface §2.1, as JSON text with exact decimals. */
export function successBody(result: unknown, message = 'OK'): string {
  return writeExactJson({ status: true, message, isSuccess: true, result });
}

/** The same envelope around a result already written as exact JSON (a new checkout is written once, for its event and its answer). */
export function successBodyAround(resultJson: string, message = 'OK'): string {
  return `{"status":true,"message":${JSON.stringify(message)},"isSuccess":true,"result":${resultJson}}`;
}
