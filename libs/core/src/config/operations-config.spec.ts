import { AppConfig, ConfigError } from './app-config';
import { pinoLevelOf } from '@dam/observability';

/** The variables of logs, metrics and rate limits (issue 16). */
describe('AppConfig: operations', () => {
  it('defaults: requests logged, JSON unless stdout is a TTY, /metrics public, 10 failures in 900 s, no token limit', () => {
    const config = AppConfig.fromEnv({});
    expect(config.logRequests).toBe(true);
    expect(config.logFormat).toBe(process.stdout.isTTY === true ? 'pretty' : 'json');
    expect(config.metricsToken).toBeUndefined();
    expect(config.loginMaxFailures).toBe(10);
    expect(config.loginWindowSeconds).toBe(900);
    expect(config.rateLimitPerMinute).toBeUndefined();
  });

  it('reads them', () => {
    const config = AppConfig.fromEnv({
      DAM_LOG_REQUESTS: 'false',
      DAM_LOG_FORMAT: 'PRETTY',
      DAM_METRICS_TOKEN: ' scrape-me ',
      DAM_LOGIN_MAX_FAILURES: '5',
      DAM_LOGIN_WINDOW_SECONDS: '60',
      DAM_RATE_LIMIT_PER_MINUTE: '600',
    });
    expect(config).toMatchObject({
      logRequests: false,
      logFormat: 'pretty',
      metricsToken: 'scrape-me',
      loginMaxFailures: 5,
      loginWindowSeconds: 60,
      rateLimitPerMinute: 600,
    });
  });

  it.each([
    ['DAM_LOG_FORMAT', 'xml'],
    ['DAM_LOGIN_MAX_FAILURES', '0'],
    ['DAM_LOGIN_MAX_FAILURES', '2.5'],
    ['DAM_LOGIN_WINDOW_SECONDS', '0'],
    ['DAM_RATE_LIMIT_PER_MINUTE', '0'],
    ['DAM_RATE_LIMIT_PER_MINUTE', 'lots'],
  ])('refuses %s=%s, naming it', (variable, value) => {
    expect(() => AppConfig.fromEnv({ [variable]: value })).toThrow(ConfigError);
    expect(() => AppConfig.fromEnv({ [variable]: value })).toThrow(variable);
  });

  it.each([
    [['error', 'warn'], 'warn'],
    [['log', 'warn', 'error', 'fatal'], 'info'],
    [['verbose', 'error'], 'trace'],
    [['fatal'], 'fatal'],
    [[], 'silent'],
    [false, 'silent'],
  ] as const)('maps Nest levels %j to pino %s', (levels, level) => {
    expect(pinoLevelOf(levels === false ? false : [...levels])).toBe(level);
  });
});
