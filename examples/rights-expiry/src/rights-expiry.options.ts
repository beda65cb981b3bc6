/** Settings of the rights-expiry module, given to `RightsExpiryModule.forRoot`. */
export interface RightsExpiryOptions {
  /** Days of rights a new asset gets; null: none (set per asset through the admin endpoint). */
  defaultTermDays: number | null;
  /** The `expire-rights` job's schedule unless DAM_JOB_EXPIRE_RIGHTS_CRON sets another. */
  cron: string;
}

export const RIGHTS_EXPIRY_OPTIONS = Symbol('RIGHTS_EXPIRY_OPTIONS');
