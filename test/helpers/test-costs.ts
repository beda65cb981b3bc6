/**
 * Settings every app the tests start gets unless a spec sets them (TestApp, ServiceProcess): production's
 * costs that only slow the suite down. scrypt at N = 2^10, not 2^15, so each login and new password costs
 * ~30 times less; a locked login's 429 comes 50 ms late, not 1 s (test/lockout.e2e-spec.ts checks the
 * second, test/token-endpoint-throttle.e2e-spec.ts hashes at 2^15 where a burst must fill the gate).
 */
export const TEST_COSTS: Readonly<Record<string, string>> = {
  DAM_HASH_COST: '10',
  DAM_LOGIN_LOCKED_DELAY_MS: '50',
};
