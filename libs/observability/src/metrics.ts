import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, register, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { JobRunObserver, JobRunOutcome } from '@dam/jobs';
import { elapsedMs, measureTraffic, routePatternOf, trafficOf } from './traffic';

const OBSERVED = Symbol('observed');
type Observed = ServerResponse & { [OBSERVED]?: { metrics: Metrics; request: IncomingMessage } };
type DurationLabels = Readonly<{ method: string; route: string; status: string }>;

function responseClosed(this: Observed): void {
  const observed = this[OBSERVED];
  if (observed === undefined) return;
  this[OBSERVED] = undefined;
  observed.metrics.closed(observed.request, this);
}

/** Requests that matched no route share one label value, so a scan of random paths cannot grow the series. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** The mysql2 pool internals the pool gauges read (queues with a `length`). */
interface Mysql2Pool {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
  config?: { connectionLimit?: number };
}

/**
 * Node's process metrics, collected once per process, in prom-client's default registry. prom-client
 * watches garbage collections with a PerformanceObserver and the event loop's delay with a histogram, and
 * never stops either: collected per application instance, they kept every instance (its registry, and
 * through the async context they were made in, whatever made it) for the life of a process that makes
 * several, as the tests do, and ran each instance's observer on every collection.
 */
function collectProcessMetrics(): void {
  if (register.getSingleMetric('process_cpu_user_seconds_total') === undefined) collectDefaultMetrics();
}

/**
 * The service's Prometheus metrics (`GET /metrics`), in a registry of this application instance (tests run
 * several in one process; prom-client's global registry would mix them):
 * - `http_request_duration_seconds{method,route,status}`: route is the matched pattern (`/rest/assets/:id`);
 * - `http_requests_in_flight`; `http_uploaded_bytes_total` and `http_downloaded_bytes_total` by route:
 *   request and response body bytes through this process (downloads redirected to S3 are not in them);
 * - `db_pool_connections{state}` and `db_pool_max_connections`: the mysql2 pool, or SQLite's one
 *   synchronous connection (never busy when sampled, nothing waits);
 * - `dam_renditions_total{kind,outcome}`: renditions made, failed and timed out in this instance;
 * - `dam_job_runs_total{job,status}`, `dam_job_failures_total{job}`,
 *   `dam_job_last_success_timestamp_seconds{job}`: runs that ended in this instance;
 * - Node's process metrics (`process_*`, `nodejs_*`), collected once per process in prom-client's default
 *   registry (`collectProcessMetrics`).
 */
@Injectable()
export class Metrics extends JobRunObserver {
  readonly registry = new Registry();
  private readonly labelSets = new Map<string, DurationLabels>();
  private readonly duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the end of its response, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly inFlight = new Gauge({
    name: 'http_requests_in_flight',
    help: 'Requests received whose response has not ended yet',
    registers: [this.registry],
  });
  private readonly uploaded = new Counter({
    name: 'http_uploaded_bytes_total',
    help: 'Request body bytes received, by route pattern',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  private readonly downloaded = new Counter({
    name: 'http_downloaded_bytes_total',
    help: 'Response body bytes sent, by route pattern',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  private readonly jobRuns = new Counter({
    name: 'dam_job_runs_total',
    help: 'Maintenance job runs that ended in this instance, by job and status (succeeded, failed)',
    labelNames: ['job', 'status'] as const,
    registers: [this.registry],
  });
  private readonly jobFailures = new Counter({
    name: 'dam_job_failures_total',
    help: 'Maintenance job runs that failed in this instance',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });
  private readonly jobLastSuccess = new Gauge({
    name: 'dam_job_last_success_timestamp_seconds',
    help: 'When the newest successful run of the job ended (Unix time)',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });

  private readonly renditions = new Counter({
    name: 'dam_renditions_total',
    help: 'Renditions that ended in this instance, by kind (image, video, video-proxy, pdf) and outcome (made, failed, timed_out)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
    collectProcessMetrics();
    this.poolGauges();
  }

  /** Counts the request in flight until its response ends (or the connection goes), then observes it. */
  observe(request: IncomingMessage, response: ServerResponse): void {
    measureTraffic(request, response);
    this.inFlight.inc();
    (response as Observed)[OBSERVED] = { metrics: this, request };
    // One listener function for every response (no closure per request).
    response.on('close', responseClosed);
  }

  /** Called once per response, when it closed. */
  closed(request: IncomingMessage, response: ServerResponse): void {
    this.inFlight.dec();
    const traffic = trafficOf(request);
    const route = routePatternOf(request) ?? UNMATCHED_ROUTE;
    const status = response.writableFinished ? response.statusCode : 'aborted';
    this.duration.observe(
      this.durationLabels(request.method ?? 'UNKNOWN', route, status),
      traffic === undefined ? 0 : elapsedMs(traffic) / 1000,
    );
    if (traffic === undefined) return;
    if (traffic.received > 0) this.uploaded.inc({ route }, traffic.received);
    if (traffic.sent > 0) this.downloaded.inc({ route }, traffic.sent);
  }

  /** The label set of one method, route and status, made once (routes and statuses are few). */
  private durationLabels(method: string, route: string, status: number | 'aborted'): DurationLabels {
    const key = `${method} ${status} ${route}`;
    let labels = this.labelSets.get(key);
    if (labels === undefined) {
      labels = Object.freeze({ method, route, status: String(status) });
      // Bounded: methods are whatever clients send; past the bound the set is made per request.
      if (this.labelSets.size < 1000) this.labelSets.set(key, labels);
    }
    return labels;
  }

  /** Every registered job gets its series at boot (0 runs), so an alert on them needs no `absent()`. */
  override jobsKnown(jobs: string[], lastSuccesses: Map<string, Date>): void {
    for (const job of jobs) {
      for (const status of ['succeeded', 'failed']) this.jobRuns.inc({ job, status }, 0);
      this.jobFailures.inc({ job }, 0);
      const last = lastSuccesses.get(job);
      if (last !== undefined) this.jobLastSuccess.set({ job }, last.getTime() / 1000);
    }
  }

  override runEnded(job: string, outcome: JobRunOutcome): void {
    this.jobRuns.inc({ job, status: outcome.status });
    if (outcome.status === 'failed') this.jobFailures.inc({ job });
    else this.jobLastSuccess.set({ job }, outcome.finishedAt.getTime() / 1000);
  }

  /** One rendition (a file's images, a video's proxy) made, failed or killed at the time limit. */
  renditionEnded(kind: string, outcome: 'made' | 'failed' | 'timed_out'): void {
    this.renditions.inc({ kind, outcome });
  }

  /** The exposition text and its content type. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    const exposed = Registry.merge([this.registry, register]);
    return { contentType: exposed.contentType, text: await exposed.metrics() };
  }

  private poolGauges(): void {
    const dataSource = this.dataSource;
    const pool = (): Mysql2Pool | undefined =>
      dataSource.options.type === 'mysql' || dataSource.options.type === 'mariadb'
        ? (dataSource.driver as unknown as { pool?: Mysql2Pool }).pool
        : undefined;
    const isSqlite = dataSource.options.type === 'better-sqlite3';
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database connections by state: open, idle, in_use, and waiting (requests queued for one)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const mysql = pool();
        if (mysql !== undefined) {
          const open = mysql._allConnections?.length ?? 0;
          const idle = mysql._freeConnections?.length ?? 0;
          this.set({ state: 'open' }, open);
          this.set({ state: 'idle' }, idle);
          this.set({ state: 'in_use' }, open - idle);
          this.set({ state: 'waiting' }, mysql._connectionQueue?.length ?? 0);
        } else if (isSqlite) {
          const open = dataSource.isInitialized ? 1 : 0;
          this.set({ state: 'open' }, open);
          this.set({ state: 'idle' }, open);
          this.set({ state: 'in_use' }, 0);
          this.set({ state: 'waiting' }, 0);
        }
      },
    });
    new Gauge({
      name: 'db_pool_max_connections',
      help: 'The most database connections the pool opens (1 for SQLite)',
      registers: [this.registry],
      collect() {
        this.set(isSqlite ? 1 : (pool()?.config?.connectionLimit ?? 0));
      },
    });
  }
}
