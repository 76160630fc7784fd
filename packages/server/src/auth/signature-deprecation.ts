import type { Config } from '../config.js';

/**
 * Version-1 signatures are deprecated: every answer to a request signed with
 * version 1 says so in the headers a client library or gateway can act on, and a metric counts
 * such requests per key so an operator sees who still has to move.
 *
 * - `Deprecation: @<unix seconds>` (RFC 9745): since when;
 * - `Sunset: <HTTP-date>` (RFC 8594): when version 1 may be refused (announced, not enforced:
 *   an operator makes keys require version 2);
 * - `Link: <guide>; rel="deprecation"` (RFC 9745 §3): the migration section.
 *
 * The metric's `key_id` label takes only ids of keys that authenticated (an attacker cannot add
 * series by sending made-up ids), and at most MAX_V1_KEY_LABELS of them per process; later keys
 * are counted under `key_id="other"`, so the series stay bounded whatever the number of keys.
 */
export const MAX_V1_KEY_LABELS = 200;
export const OTHER_KEYS = 'other';

export interface V1Notice {
  /** The three headers, in the order they are written (after cache-control, before RateLimit). */
  readonly headers: { readonly deprecation: string; readonly sunset: string; readonly link: string };
  /** Counts one accepted version-1 request of the key. */
  count(keyId: string): void;
}

export interface KeyCounter {
  inc(labels: { key_id: string }): void;
}

export function signatureV1Notice(
  config: Pick<Config, 'signatureV1DeprecatedAt' | 'signatureV1SunsetAt' | 'signatureV1DocsUrl'>,
  counter: KeyCounter | undefined,
): V1Notice {
  const labelled = new Set<string>();
  return {
    headers: {
      deprecation: `@${Math.floor(Date.parse(config.signatureV1DeprecatedAt) / 1000)}`,
      // toUTCString writes the IMF-fixdate form of HTTP-date (RFC 9110 §5.6.7).
      sunset: new Date(config.signatureV1SunsetAt).toUTCString(),
      link: `<${config.signatureV1DocsUrl}>; rel="deprecation"; type="text/html"`,
    },
    count(keyId) {
      if (counter === undefined) return;
      if (!labelled.has(keyId) && labelled.size < MAX_V1_KEY_LABELS) labelled.add(keyId);
      counter.inc({ key_id: labelled.has(keyId) ? keyId : OTHER_KEYS });
    },
  };
}
