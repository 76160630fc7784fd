import { parseJson, type AmountMode } from './decimals.js';
import { HostpayError } from './errors.js';
import { parseRetryAfter } from './retry.js';

type Json = Record<string, unknown>;
const record = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;

/**
 * The `result` of a success envelope (the whole envelope when `whole`), or a HostpayError for anything else: the server's error
 * envelope as it is, or HTTP_ERROR / INVALID_RESPONSE when the body is not a hostpay envelope.
 */
export function readEnvelope(res: Response, text: string, mode: AmountMode, whole = false): unknown {
  let doc: Json | undefined;
  try {
    doc = record(parseJson(text, mode));
  } catch {
    doc = undefined;
  }
  if (res.ok && doc?.isSuccess === true && 'result' in doc) return whole ? doc : doc.result;
  // Headers are read only for errors: a success needs none of them.
  const headerRequestId = res.headers.get('x-request-id') ?? undefined;
  const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
  const error = record(doc?.error);
  if (doc?.isSuccess === false && typeof error?.code === 'string') {
    throw new HostpayError({
      status: res.status,
      code: error.code,
      message: typeof doc.message === 'string' ? doc.message : error.code,
      requestId: typeof error.requestId === 'string' ? error.requestId : headerRequestId,
      details: record(error.details),
      retryAfter,
    });
  }
  throw new HostpayError({
    status: res.status,
    code: res.ok ? 'INVALID_RESPONSE' : 'HTTP_ERROR',
    message: res.ok
      ? `HTTP ${res.status} with a body that is not a hostpay envelope: check baseUrl`
      : `HTTP ${res.status} without a hostpay error body: a proxy or load balancer answered, or baseUrl is wrong`,
    requestId: headerRequestId,
    retryAfter,
  });
}
