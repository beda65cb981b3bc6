/**
 * Load with autocannon (in the benchmark's process, apart from the server's): one run against a URL with
 * keep-alive connections for a fixed time, reduced to what the tables show.
 */
import { createRequire } from 'node:module';

/** The part of autocannon (untyped) used here. */
interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  throughput: { average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (
  options: {
    url: string;
    connections: number;
    duration: number;
    /** Seconds before a request counts as a timeout (and an error). */
    timeout: number;
    headers: Record<string, string>;
  },
  done: (error: Error | null, result: AutocannonResult) => void,
) => unknown;

const autocannon = createRequire(__filename)('autocannon') as Autocannon;

export interface LoadFigures {
  requestsPerSecond: number;
  /** Latency percentiles in ms. */
  p50: number;
  p99: number;
  bytesPerResponse: number;
  /** Requests that had no answer within TIMEOUT_SECONDS (not in the latencies). */
  timeouts: number;
}

/** Far beyond any p99 seen here, so that a timeout means a stall, not a busy machine. */
export const TIMEOUT_SECONDS = 30;

/**
 * Fails when any answer is not 2xx or a connection errs (a figure for error answers would be a lie);
 * timeouts are counted and reported instead, as on a crowded machine they measure the machine.
 */
export function load(
  url: string,
  options: { connections: number; seconds: number; token?: string },
): Promise<LoadFigures> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: options.connections, duration: options.seconds, timeout: TIMEOUT_SECONDS, headers },
      (error, result) => {
        if (error !== null) return reject(error);
        const { non2xx, errors, timeouts } = result; // autocannon counts a timeout as an error too
        if (non2xx > 0 || errors > timeouts) {
          return reject(new Error(`${url}: ${non2xx} non-2xx answers, ${errors - timeouts} errors`));
        }
        resolve({
          requestsPerSecond: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          bytesPerResponse: result.throughput.average / result.requests.average,
          timeouts,
        });
      },
    );
  });
}
