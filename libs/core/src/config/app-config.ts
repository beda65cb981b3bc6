import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import type { BodyLimits } from './body-limits';
import { ConfigError } from './config-error';
import { EnvListReader } from './env-lists';
import type { HostPort } from './host-port';
import { type MinioSettings, readMinioSettings } from './minio-config';
import { OidcSettings, readOidcSettings } from './oidc-config';
import { type PreviewSettings, readPreviewSettings } from './preview-config';

export { ConfigError } from './config-error';
export type { MinioSettings } from './minio-config';
export type { PreviewSettings } from './preview-config';

export type StorageDriver = 'fs' | 'minio';

export type LogFormat = 'json' | 'pretty';

/** JSON lines for collectors, unless a person watches the terminal. */
function defaultLogFormat(): LogFormat {
  return process.stdout.isTTY === true ? 'pretty' : 'json';
}

/**
 * The whole runtime configuration, read once from the environment and validated.
 * Nothing else in the code base reads `process.env`.
 */
export class AppConfig {
  port: number;
  publicUrl: string | undefined;
  /**
   * DAM_ALLOWED_HOSTS: the `Host` (or, with DAM_TRUST_PROXY, `X-Forwarded-Host`) values requests may name
   * (http/trusted-origin.ts); an entry without a port allows any port. Unset: the defaults there.
   */
  allowedHosts: HostPort[] | undefined;
  trustProxy: boolean;
  dataDir: string;
  databaseUrl: string | undefined;
  /** DATABASE_READ_URL: a read replica that search reads go to (MySQL only); unset: the main database. */
  databaseReadUrl: string | undefined;
  storageDriver: StorageDriver;
  minio: MinioSettings | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
  urlSigningSecret: string | undefined;
  trustedNetworks: string[];
  /**
   * DAM_CORS_ORIGINS: origins (`https://app.example.com`) whose browser pages may call the API, or `*` for
   * any; empty (unset): no CORS headers at all.
   */
  corsOrigins: string[];
  assetTypesEnabled: boolean;
  // DAM_XML_BY_DEFAULT: a missing Accept, or only the wildcard */*, answers XML as Asset Bank does (else JSON).
  xmlByDefault: boolean;
  languages: string[];
  tempFileTtlHours: number;
  jobsEnabled: boolean;
  /**
   * DAM_TEMP_FILE_PURGE_INTERVAL_SECONDS (kept from before the jobs API): when set, and
   * DAM_JOB_PURGE_TEMP_FILES_CRON is not, `purge-temp-files` runs every that many seconds.
   */
  tempFilePurgeIntervalSeconds: number | undefined;
  /** DAM_JOB_<NAME>_CRON, by NAME (`VERIFY_INTEGRITY`): a valid cron expression or `off`. */
  jobCrons: Record<string, string>;
  /** A running job's lease lasts this long unless renewed; a run whose instance died is failed after it. */
  jobLeaseTtlSeconds: number;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** DAM_REFRESH_TOKEN_MAX_DAYS: a login's refresh tokens end this long after the login, however often rotated. */
  refreshTokenMaxDays: number;
  /** Lifetime of the download URLs the service hands out (content, versions, renditions, images). */
  signedUrlTtlSeconds: number;
  /** `POST /rest/sign-url` with `expirySeconds: 0` signs a URL that never expires (else: the longest TTL). */
  signedUrlAllowNever: boolean;
  maxJsonBodyBytes: number;
  /** DAM_BODY_MAX_*: the shape of JSON, XML and form bodies (depth, keys, items), before any DTO work. */
  bodyLimits: BodyLimits;
  /** The same for `/oauth/` bodies: DAM_TOKEN_BODY_MAX_KEYS bounds keys, items and form parameters. */
  tokenBodyLimits: BodyLimits;
  /** DAM_BODY_REFUSALS_PER_MINUTE: refused bodies per address and per token a minute, then 429 unread (0: off). */
  bodyRefusalsPerMinute: number;
  maxChunkBytes: number;
  /** DAM_MAX_UPLOAD_BYTES: the largest file one upload may store (content PUT, a temp file, a tus upload). */
  maxUploadBytes: number;
  /** DAM_LOG_REQUESTS: one log line per request (false: none; errors and Nest's own logs still go out). */
  logRequests: boolean;
  /** DAM_LOG_FORMAT: JSON lines, or pino-pretty's coloured text (the default on a TTY). */
  logFormat: LogFormat;
  /** DAM_METRICS_TOKEN: when set, `GET /metrics` needs it as a bearer token; otherwise it is public. */
  metricsToken: string | undefined;
  /** DAM_USERNAME_CHARACTERS: `latin` (letters of the Latin script, 0-9, email symbols) or `any`. */
  usernameCharacters: 'latin' | 'any';
  /** DAM_LOGIN_MAX_FAILURES failed password grants for one username, or from one address, within ... */
  /**
   * DAM_LOGIN_MAX_FAILURES failed password grants (or client authentications) for one username (client id)
   * from one address, or for it from DAM_LOGIN_LOCK_ADDRESSES addresses or more, within ...
   */
  loginMaxFailures: number;
  /** ... DAM_LOGIN_WINDOW_SECONDS answer 429 to further attempts until that window has passed. */
  loginWindowSeconds: number;
  /** DAM_LOGIN_LOCK_ADDRESSES: distinct addresses whose failures it takes to lock a username everywhere. */
  loginLockAddresses: number;
  /** DAM_LOGIN_MAX_FAILURES_PER_ADDRESS: failures from one address (any usernames) that lock that address. */
  loginMaxFailuresPerAddress: number;
  /** DAM_LOGIN_LOCKED_DELAY_MS: how late a locked attempt's 429 is answered (the test apps: 50). */
  loginLockedDelayMs: number;
  /** DAM_HASH_CONCURRENCY: password and secret hashes (scrypt) computed at once. */
  hashConcurrency: number;
  /** DAM_HASH_MAX_WAITING: hashes waiting for their turn; one more answers 503. */
  hashMaxWaiting: number;
  /**
   * DAM_HASH_COST: log2 of scrypt's N for new hashes (15: N=32768). The test suite lowers it to 10 (about
   * 30 times less work per login); every hash keeps the cost it was made with.
   */
  hashCost: number;
  /** DAM_RATE_LIMIT_PER_MINUTE: requests per bearer token per minute (off when unset). */
  rateLimitPerMinute: number | undefined;
  databaseConnectRetries: number;
  /** A database query (including waiting for a connection) that takes longer fails, and its request answers 503. */
  databaseTimeoutMs: number;
  /** DAM_JOB_DATABASE_TIMEOUT_MS: the same deadline for the queries of maintenance jobs (long recounts). */
  jobDatabaseTimeoutMs: number;
  /**
   * DAM_SEARCH_FACETS_MEMORY_KB: MySQL, the largest in-memory table of matches one facets request builds
   * (`max_heap_table_size` of its session); more matches go to an on-disk temporary table.
   */
  searchFacetsMemoryKb: number;
  /** An object store request that makes no progress (nothing sent or received) for this long fails: 503. */
  storageTimeoutMs: number;
  /** Seconds between runs of the queued object deletions (retries of failed deletes of replaced objects). */
  objectDeletionIntervalSeconds: number;
  /** Images larger than this get no renditions and cannot be converted (the upload still succeeds). */
  renditionMaxInputBytes: number;
  /** Images of more pixels (width × height) get no renditions and cannot be converted (decompression bombs). */
  renditionMaxInputPixels: number;
  /** Renditions generated at once, in the background after the upload answered. */
  renditionConcurrency: number;
  /** DAM_RENDITION_TIMEOUT_SECONDS, DAM_FFMPEG_PATH, DAM_RENDITION_POLL_MS, ...: video and PDF previews. */
  previews: PreviewSettings;
  /** DAM_ROLE: `api` serves HTTP only, `worker` makes renditions only (and answers health and metrics), `all` both. */
  role: 'all' | 'api' | 'worker';
  /** Stored objects younger than this are never swept as orphans (an upload may not have committed yet). */
  orphanGraceHours: number;
  /** DAM_TRASH_RETENTION_DAYS: a deleted asset stays restorable this long; 0 deletes at once. */
  trashRetentionDays: number;
  /** DAM_SHARE_MAX_DAYS: the furthest a share's `expiresAt` may be set, in days from its creation. */
  shareMaxDays: number;
  /**
   * DAM_DUPLICATE_UPLOADS: a content upload whose bytes are the current content of other assets the
   * uploader can see is answered with `X-Duplicate-Of` (`warn`), refused with 409 (`refuse`), or not
   * looked for (`allow`).
   */
  duplicateUploads: 'warn' | 'refuse' | 'allow';
  /** DAM_AUDIT_RETENTION_DAYS: audit entries older than this are purged by `purge-audit`. */
  auditRetentionDays: number;
  /** DAM_AUDIT_ENABLED (true): false writes no audit entry (the audit benchmark's baseline). */
  auditEnabled: boolean;
  /** Bytes `verify-integrity` re-hashes per run at most (at least one file); with its schedule, the rate. */
  verifyIntegrityMaxBytesPerRun: number;
  /**
   * DAM_HEAP_RELEASE_MB: after a second with no request and no stream, when RSS is this much above where
   * the last release (or the boot) left it, one collection that gives the heap's free pages back; 0: off.
   */
  heapReleaseMb: number;
  /** DAM_WEBHOOK_POLL_MS: how often this instance delivers webhooks (outbox, retries); 0: it delivers none. */
  webhookPollMs: number;
  /** DAM_WEBHOOK_RETRY_BASE_SECONDS: the first retry delay, doubled per attempt (12 retries ≈ 4095 × it). */
  webhookRetryBaseSeconds: number;
  /** DAM_WEBHOOK_TIMEOUT_MS: one delivery attempt (connect, send, answer) fails after this long. */
  webhookTimeoutMs: number;
  /** DAM_WEBHOOK_ALLOWED_HOSTS: host names or IPs a webhook may target although they are private or local. */
  webhookAllowedHosts: string[];
  /** DAM_OIDC_*: single sign-on with the JWTs of one OpenID Connect issuer (unset: off). */
  oidc: OidcSettings | undefined;

  get defaultLanguage(): string {
    return this.languages[0];
  }

  static fromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
    const read = new EnvListReader(env);
    const config = new AppConfig();
    config.port = read.integer('PORT', 3000, 0, 65535);
    config.publicUrl = read.optionalUrl('DAM_PUBLIC_URL');
    config.allowedHosts = read.hostPortList('DAM_ALLOWED_HOSTS');
    config.trustProxy = read.boolean('DAM_TRUST_PROXY', false);
    config.dataDir = path.resolve(read.string('DAM_DATA_DIR', './data'));
    config.databaseUrl = read.optionalDatabaseUrl('DATABASE_URL');
    config.databaseReadUrl = read.optionalDatabaseUrl('DATABASE_READ_URL');
    if (config.databaseReadUrl !== undefined && config.databaseUrl === undefined)
      throw new ConfigError(
        'DATABASE_READ_URL',
        'needs DATABASE_URL (a replica of the embedded SQLite cannot be read)',
      );
    config.storageDriver = read.oneOf('STORAGE_DRIVER', ['fs', 'minio'] as const, 'fs');
    config.minio = config.storageDriver === 'minio' ? readMinioSettings(read) : undefined;
    config.clientId = read.optionalString('DAM_CLIENT_ID');
    config.clientSecret = read.optionalString('DAM_CLIENT_SECRET');
    if ((config.clientId === undefined) !== (config.clientSecret === undefined)) {
      throw new ConfigError(
        config.clientId === undefined ? 'DAM_CLIENT_ID' : 'DAM_CLIENT_SECRET',
        'must be set together with its pair',
      );
    }
    config.urlSigningSecret = read.optionalString('DAM_URL_SIGNING_SECRET');
    if (config.urlSigningSecret !== undefined && config.urlSigningSecret.length < 32) {
      throw new ConfigError('DAM_URL_SIGNING_SECRET', 'must be at least 32 characters');
    }
    config.trustedNetworks = read.cidrList('DAM_TRUSTED_NETWORKS');
    config.corsOrigins = read.originList('DAM_CORS_ORIGINS');
    config.assetTypesEnabled = read.boolean('DAM_ASSET_TYPES_ENABLED', false);
    config.xmlByDefault = read.boolean('DAM_XML_BY_DEFAULT', false);
    config.languages = read.languages('DAM_LANGUAGES');
    config.tempFileTtlHours = read.number('DAM_TEMP_FILE_TTL_HOURS', 24, 0.001);
    config.jobsEnabled = read.boolean('DAM_JOBS_ENABLED', true);
    config.tempFilePurgeIntervalSeconds =
      read.optionalString('DAM_TEMP_FILE_PURGE_INTERVAL_SECONDS') === undefined
        ? undefined
        : read.integer('DAM_TEMP_FILE_PURGE_INTERVAL_SECONDS', 600, 1);
    config.jobCrons = read.jobCrons();
    config.jobLeaseTtlSeconds = read.integer('DAM_JOB_LEASE_TTL_SECONDS', 60, 1, 24 * 3600);
    config.accessTokenTtlSeconds = read.integer('DAM_ACCESS_TOKEN_TTL_SECONDS', 3600, 1);
    config.refreshTokenTtlSeconds = read.integer('DAM_REFRESH_TOKEN_TTL_SECONDS', 30 * 24 * 3600, 1);
    // Fractions of a day are allowed (tests use seconds' worth).
    config.refreshTokenMaxDays = read.number('DAM_REFRESH_TOKEN_MAX_DAYS', 90, 0.00001, 3650);
    // At most a week: the longest an S3 presigned URL may live.
    config.signedUrlTtlSeconds = read.integer('DAM_SIGNED_URL_TTL_SECONDS', 3600, 1, 7 * 24 * 3600);
    config.signedUrlAllowNever = read.boolean('DAM_SIGNED_URL_ALLOW_NEVER', false);
    config.maxJsonBodyBytes = read.integer('DAM_MAX_JSON_BODY_BYTES', 1024 * 1024, 1024);
    config.bodyLimits = {
      depth: read.integer('DAM_BODY_MAX_DEPTH', 32, 2, 1000),
      objectKeys: read.integer('DAM_BODY_MAX_OBJECT_KEYS', 1000, 10, 1_000_000),
      keys: read.integer('DAM_BODY_MAX_KEYS', 50_000, 10, 10_000_000),
      arrayItems: read.integer('DAM_BODY_MAX_ARRAY_ITEMS', 10_000, 10, 10_000_000),
    };
    const tokenKeys = read.integer('DAM_TOKEN_BODY_MAX_KEYS', 32, 8, 1000);
    config.tokenBodyLimits = {
      depth: config.bodyLimits.depth,
      objectKeys: tokenKeys,
      keys: tokenKeys,
      arrayItems: tokenKeys,
    };
    config.bodyRefusalsPerMinute = read.integer('DAM_BODY_REFUSALS_PER_MINUTE', 60, 0);
    config.maxChunkBytes = read.integer('DAM_MAX_CHUNK_BYTES', 256 * 1024 * 1024, 1);
    // 50 GiB: a long 4K video master fits; one request can no longer claim the whole disk.
    config.maxUploadBytes = read.integer('DAM_MAX_UPLOAD_BYTES', 50 * 1024 ** 3, 1);
    config.logRequests = read.boolean('DAM_LOG_REQUESTS', true);
    config.logFormat = read.oneOf('DAM_LOG_FORMAT', ['json', 'pretty'] as const, defaultLogFormat());
    config.metricsToken = read.optionalString('DAM_METRICS_TOKEN');
    config.usernameCharacters = read.oneOf('DAM_USERNAME_CHARACTERS', ['latin', 'any'] as const, 'latin');
    config.loginMaxFailures = read.integer('DAM_LOGIN_MAX_FAILURES', 10, 1, 1_000_000);
    config.loginWindowSeconds = read.integer('DAM_LOGIN_WINDOW_SECONDS', 900, 1, 7 * 24 * 3600);
    config.loginLockAddresses = read.integer('DAM_LOGIN_LOCK_ADDRESSES', 3, 1, 1000);
    config.loginMaxFailuresPerAddress = read.integer('DAM_LOGIN_MAX_FAILURES_PER_ADDRESS', 50, 1, 1_000_000);
    config.loginLockedDelayMs = read.integer('DAM_LOGIN_LOCKED_DELAY_MS', 1000, 0, 60_000);
    config.hashConcurrency = read.integer('DAM_HASH_CONCURRENCY', 2, 1, 64);
    config.hashMaxWaiting = read.integer('DAM_HASH_MAX_WAITING', 32, 0, 100_000);
    config.hashCost = read.integer('DAM_HASH_COST', 15, 10, 18);
    config.rateLimitPerMinute =
      read.optionalString('DAM_RATE_LIMIT_PER_MINUTE') === undefined
        ? undefined
        : read.integer('DAM_RATE_LIMIT_PER_MINUTE', 0, 1);
    config.databaseConnectRetries = read.integer('DAM_DATABASE_CONNECT_RETRIES', 10, 0, 1000);
    config.databaseTimeoutMs = read.integer('DAM_DATABASE_TIMEOUT_MS', 5000, 100);
    config.jobDatabaseTimeoutMs = read.integer('DAM_JOB_DATABASE_TIMEOUT_MS', 30 * 60_000, 100);
    // MySQL's smallest max_heap_table_size is 16 KiB.
    config.searchFacetsMemoryKb = read.integer('DAM_SEARCH_FACETS_MEMORY_KB', 65536, 16, 4 * 1024 * 1024);
    config.storageTimeoutMs = read.integer('DAM_STORAGE_TIMEOUT_MS', 30_000, 100);
    config.objectDeletionIntervalSeconds = read.integer('DAM_OBJECT_DELETION_INTERVAL_SECONDS', 60, 1);
    config.renditionMaxInputBytes = read.integer('DAM_RENDITION_MAX_INPUT_BYTES', 256 * 1024 * 1024, 1);
    config.renditionMaxInputPixels = read.integer('DAM_RENDITION_MAX_INPUT_PIXELS', 100_000_000, 1);
    config.renditionConcurrency = read.integer('DAM_RENDITION_CONCURRENCY', 1, 1, 64);
    config.previews = readPreviewSettings(read, availableParallelism());
    config.role = read.oneOf('DAM_ROLE', ['all', 'api', 'worker'] as const, 'all');
    config.orphanGraceHours = read.number('DAM_ORPHAN_GRACE_HOURS', 24, 0);
    config.trashRetentionDays = read.number('DAM_TRASH_RETENTION_DAYS', 30, 0, 36_500);
    config.shareMaxDays = read.number('DAM_SHARE_MAX_DAYS', 90, 0.00001, 36_500);
    config.duplicateUploads = read.oneOf(
      'DAM_DUPLICATE_UPLOADS',
      ['warn', 'refuse', 'allow'] as const,
      'warn',
    );
    config.auditRetentionDays = read.number('DAM_AUDIT_RETENTION_DAYS', 365, 1, 36_500);
    config.auditEnabled = read.boolean('DAM_AUDIT_ENABLED', true);
    config.verifyIntegrityMaxBytesPerRun = read.integer(
      'DAM_VERIFY_INTEGRITY_MAX_BYTES_PER_RUN',
      2 * 1024 * 1024 * 1024,
      1,
    );
    config.heapReleaseMb = read.integer('DAM_HEAP_RELEASE_MB', 32, 0, 1_048_576);
    config.webhookPollMs = read.integer('DAM_WEBHOOK_POLL_MS', 1000, 0, 3_600_000);
    if (config.webhookPollMs > 0 && config.webhookPollMs < 50)
      throw new ConfigError(
        'DAM_WEBHOOK_POLL_MS',
        `must be 0 (off) or at least 50 (got "${config.webhookPollMs}")`,
      );
    // 21 s doubled over 12 retries: the last one about 24 h (21 × 4095 s) after the first attempt.
    config.webhookRetryBaseSeconds = read.number('DAM_WEBHOOK_RETRY_BASE_SECONDS', 21, 0.001, 86_400);
    config.webhookTimeoutMs = read.integer('DAM_WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000);
    config.webhookAllowedHosts = read.hostList('DAM_WEBHOOK_ALLOWED_HOSTS');
    config.oidc = readOidcSettings(read);
    return config;
  }
}
