/**
 * Delivery retries (Standard Webhooks: exponential backoff): after the n-th failed attempt the next one
 * is `base × 2^(n-1)` seconds later, for RETRIES retries. With the default base (21 s,
 * DAM_WEBHOOK_RETRY_BASE_SECONDS) the last retry comes about 24 h (21 × 4095 s ≈ 23.9 h) after the first
 * attempt; an endpoint that has failed for that long (its window) is disabled.
 */
export const RETRIES = 12;
export const MAX_ATTEMPTS = RETRIES + 1;

/** Milliseconds until the attempt after the `attempts`-th, or undefined when the delivery gives up. */
export function retryDelayMs(attempts: number, baseSeconds: number): number | undefined {
  if (attempts >= MAX_ATTEMPTS) return undefined;
  return Math.round(baseSeconds * 1000 * 2 ** (attempts - 1));
}

/** The span of all retries: an endpoint failing for this long is disabled (≈ 24 h by default). */
export function failureWindowMs(baseSeconds: number): number {
  return Math.round(baseSeconds * 1000 * (2 ** RETRIES - 1));
}
