import * as path from 'node:path';
import { AppConfig, ConfigError } from './app-config';

const MINIO = {
  STORAGE_DRIVER: 'minio',
  MINIO_ENDPOINT: 'minio.internal',
  MINIO_ACCESS_KEY: 'access',
  MINIO_SECRET_KEY: 'secret-key',
};

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    AppConfig.fromEnv(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`no ConfigError for ${JSON.stringify(env)}`);
}

describe('AppConfig.fromEnv', () => {
  describe('defaults', () => {
    const config = AppConfig.fromEnv({});

    it('runs embedded on port 3000 with SQLite and fs storage in ./data', () => {
      expect(config.port).toBe(3000);
      expect(config.dataDir).toBe(path.resolve('./data'));
      expect(config.databaseUrl).toBeUndefined();
      expect(config.storageDriver).toBe('fs');
      expect(config.minio).toBeUndefined();
    });

    it('derives URLs from requests and trusts no proxy and no network', () => {
      expect(config.publicUrl).toBeUndefined();
      expect(config.trustProxy).toBe(false);
      expect(config.trustedNetworks).toEqual([]);
    });

    it('has no client credentials or signing secret configured', () => {
      expect(config.clientId).toBeUndefined();
      expect(config.clientSecret).toBeUndefined();
      expect(config.urlSigningSecret).toBeUndefined();
    });

    it('has the documented feature defaults', () => {
      expect(config.assetTypesEnabled).toBe(false);
      expect(config.languages).toEqual(['en']);
      expect(config.defaultLanguage).toBe('en');
      expect(config.tempFileTtlHours).toBe(24);
      expect(config.jobsEnabled).toBe(true);
      expect(config.accessTokenTtlSeconds).toBe(3600);
      expect(config.refreshTokenTtlSeconds).toBe(30 * 24 * 3600);
      expect(config.signedUrlTtlSeconds).toBe(3600);
      expect(config.maxJsonBodyBytes).toBe(1024 * 1024);
      expect(config.bodyLimits).toEqual({ depth: 32, objectKeys: 1000, keys: 50_000, arrayItems: 10_000 });
      expect(config.tokenBodyLimits).toEqual({ depth: 32, objectKeys: 32, keys: 32, arrayItems: 32 });
      expect(config.maxUploadBytes).toBe(50 * 1024 ** 3);
      expect(config.duplicateUploads).toBe('warn');
    });

    it('hashes passwords and secrets with scrypt at N = 2^15 and answers locked logins 1 s late', () => {
      expect(config.hashCost).toBe(15);
      expect(config.loginLockedDelayMs).toBe(1000);
    });

    it('treats blank values as unset', () => {
      const blank = AppConfig.fromEnv({ PORT: '  ', DATABASE_URL: '', DAM_LANGUAGES: ' ' });
      expect(blank.port).toBe(3000);
      expect(blank.databaseUrl).toBeUndefined();
      expect(blank.languages).toEqual(['en']);
    });
  });

  describe('valid values', () => {
    it('reads every variable', () => {
      const config = AppConfig.fromEnv({
        PORT: '8080',
        DAM_PUBLIC_URL: 'https://dam.example.com/base/',
        DAM_TRUST_PROXY: 'yes',
        DAM_DATA_DIR: '/var/lib/dam',
        DATABASE_URL: 'mysql://dam:pw@db:3306/dam',
        DAM_CLIENT_ID: 'client',
        DAM_CLIENT_SECRET: 'secret',
        DAM_URL_SIGNING_SECRET: 's'.repeat(32),
        DAM_TRUSTED_NETWORKS: '10.0.0.0/8, 192.168.1.7, fd00::/8',
        DAM_ASSET_TYPES_ENABLED: 'TRUE',
        DAM_LANGUAGES: 'de, en-GB ,de',
        DAM_TEMP_FILE_TTL_HOURS: '0.5',
        DAM_JOBS_ENABLED: 'off',
        ...MINIO,
        MINIO_PORT: '9000',
        MINIO_USE_SSL: 'true',
        MINIO_BUCKET: 'assets',
      });
      expect(config).toMatchObject({
        port: 8080,
        publicUrl: 'https://dam.example.com/base',
        trustProxy: true,
        dataDir: '/var/lib/dam',
        databaseUrl: 'mysql://dam:pw@db:3306/dam',
        clientId: 'client',
        clientSecret: 'secret',
        trustedNetworks: ['10.0.0.0/8', '192.168.1.7', 'fd00::/8'],
        assetTypesEnabled: true,
        languages: ['de', 'en-gb'],
        tempFileTtlHours: 0.5,
        jobsEnabled: false,
        storageDriver: 'minio',
        minio: {
          endPoint: 'minio.internal',
          port: 9000,
          useSSL: true,
          accessKey: 'access',
          secretKey: 'secret-key',
          bucket: 'assets',
        },
      });
      expect(config.defaultLanguage).toBe('de');
    });

    it('accepts the mariadb:// scheme and any letter case of a storage driver', () => {
      const config = AppConfig.fromEnv({ DATABASE_URL: 'mariadb://u:p@h/db', STORAGE_DRIVER: 'FS' });
      expect(config.databaseUrl).toBe('mariadb://u:p@h/db');
      expect(config.storageDriver).toBe('fs');
    });
  });

  describe('invalid values stop the boot with a message naming the variable', () => {
    it.each<[string, NodeJS.ProcessEnv]>([
      ['PORT', { PORT: 'abc' }],
      ['PORT', { PORT: '70000' }],
      ['PORT', { PORT: '80.5' }],
      ['DATABASE_URL', { DATABASE_URL: 'postgres://x' }],
      ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
      ['DATABASE_URL', { DATABASE_URL: 'mysql://user:pw@host:3306' }],
      ['DAM_PUBLIC_URL', { DAM_PUBLIC_URL: 'ftp://dam.example.com' }],
      ['DAM_PUBLIC_URL', { DAM_PUBLIC_URL: 'dam.example.com' }],
      ['STORAGE_DRIVER', { STORAGE_DRIVER: 's3' }],
      ['MINIO_ENDPOINT', { STORAGE_DRIVER: 'minio' }],
      ['MINIO_ACCESS_KEY', { ...MINIO, MINIO_ACCESS_KEY: '' }],
      ['MINIO_SECRET_KEY', { ...MINIO, MINIO_SECRET_KEY: undefined }],
      ['MINIO_BUCKET', { ...MINIO, MINIO_BUCKET: 'Bad_Bucket' }],
      ['MINIO_PORT', { ...MINIO, MINIO_PORT: '0' }],
      ['MINIO_USE_SSL', { ...MINIO, MINIO_USE_SSL: 'maybe' }],
      ['DAM_TRUSTED_NETWORKS', { DAM_TRUSTED_NETWORKS: '10.0.0.0/99' }],
      ['DAM_TRUSTED_NETWORKS', { DAM_TRUSTED_NETWORKS: 'fd00::/129' }],
      ['DAM_TRUSTED_NETWORKS', { DAM_TRUSTED_NETWORKS: '10.0.0.0/8, example.com' }],
      ['DAM_TRUSTED_NETWORKS', { DAM_TRUSTED_NETWORKS: '10.0.0.0/8/1' }],
      ['DAM_CLIENT_ID', { DAM_CLIENT_SECRET: 'secret' }],
      ['DAM_CLIENT_SECRET', { DAM_CLIENT_ID: 'client' }],
      ['DAM_URL_SIGNING_SECRET', { DAM_URL_SIGNING_SECRET: 'too-short' }],
      ['DAM_LANGUAGES', { DAM_LANGUAGES: '!!' }],
      ['DAM_LANGUAGES', { DAM_LANGUAGES: 'en,,english' }],
      ['DAM_LANGUAGES', { DAM_LANGUAGES: ',' }],
      ['DAM_ASSET_TYPES_ENABLED', { DAM_ASSET_TYPES_ENABLED: 'sometimes' }],
      ['DAM_TEMP_FILE_TTL_HOURS', { DAM_TEMP_FILE_TTL_HOURS: '-1' }],
      ['DAM_ACCESS_TOKEN_TTL_SECONDS', { DAM_ACCESS_TOKEN_TTL_SECONDS: '0' }],
      ['DAM_SIGNED_URL_TTL_SECONDS', { DAM_SIGNED_URL_TTL_SECONDS: '0' }],
      ['DAM_SIGNED_URL_TTL_SECONDS', { DAM_SIGNED_URL_TTL_SECONDS: String(7 * 24 * 3600 + 1) }],
      ['DAM_MAX_JSON_BODY_BYTES', { DAM_MAX_JSON_BODY_BYTES: '10' }],
      ['DAM_BODY_MAX_DEPTH', { DAM_BODY_MAX_DEPTH: '1' }],
      ['DAM_BODY_MAX_OBJECT_KEYS', { DAM_BODY_MAX_OBJECT_KEYS: 'many' }],
      ['DAM_BODY_MAX_KEYS', { DAM_BODY_MAX_KEYS: '0' }],
      ['DAM_BODY_MAX_ARRAY_ITEMS', { DAM_BODY_MAX_ARRAY_ITEMS: '2.5' }],
      ['DAM_TOKEN_BODY_MAX_KEYS', { DAM_TOKEN_BODY_MAX_KEYS: '2' }],
      ['DAM_BODY_REFUSALS_PER_MINUTE', { DAM_BODY_REFUSALS_PER_MINUTE: '-1' }],
      ['DAM_MAX_UPLOAD_BYTES', { DAM_MAX_UPLOAD_BYTES: '0' }],
      ['DAM_DUPLICATE_UPLOADS', { DAM_DUPLICATE_UPLOADS: 'skip' }],
    ])('%s (%j)', (variable, env) => {
      const error = configError(env);
      expect(error.variable).toBe(variable);
      expect(error.message).toContain(variable);
    });

    it('does not echo a database password back', () => {
      const error = configError({ DATABASE_URL: 'postgres://user:hunter2@db/dam' });
      expect(error.message).not.toContain('hunter2');
    });
  });

  it('ignores MINIO_* variables when the storage driver is fs', () => {
    expect(AppConfig.fromEnv({ MINIO_BUCKET: 'Bad_Bucket' }).minio).toBeUndefined();
  });
});
