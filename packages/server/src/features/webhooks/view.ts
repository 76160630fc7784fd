import type { WebhookAttemptTable, WebhookEndpointTable } from './tables.js';

/**
 * The endpoint as merchants (and operators) see it: the URL masked (outbound/mask-url.ts) except
 * in the answer to the request that set it, the secret only when just made.
 */
export function endpointView(row: WebhookEndpointTable, nowIso: string, just: { secret?: string; url?: string } = {}) {
  const previousValid = row.previous_secret_expires_at !== null && row.previous_secret_expires_at > nowIso;
  const { secret } = just;
  return {
    id: row.id,
    url: just.url ?? row.url_shown ?? '(not sealed yet)',
    description: row.description,
    enabledEvents: JSON.parse(row.enabled_events) as string[],
    disabled: row.disabled === 1,
    disabledReason: row.disabled_reason,
    ...(secret === undefined ? {} : { secret }),
    previousSecretExpiresAt: previousValid ? row.previous_secret_expires_at : null,
    lastSuccessAt: row.last_success_at,
    failingSince: row.failing_since,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
export type EndpointView = ReturnType<typeof endpointView>;

export function attemptView(row: WebhookAttemptTable & { type: string }) {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.type,
    attemptedAt: row.attempted_at,
    statusCode: row.status_code,
    error: row.error,
    latencyMs: row.latency_ms,
    responseBody: row.response_body,
    succeeded: row.succeeded === 1,
  };
}
