import { DynamicModule, Global, Module } from '@nestjs/common';
import { LoggerModule, Params } from 'nestjs-pino';
import { JobRunObserver } from '@dam/jobs';
import { Metrics } from './metrics';

/**
 * Logs and metrics of the HTTP application: nestjs-pino (with `logging`, from `loggingParams`) and the
 * per-instance Prometheus registry, which also observes the job runner. Without `logging` (the CLI's
 * application context) there is no request logging, only the metrics.
 */
@Global()
@Module({})
export class ObservabilityModule {
  static forRoot(logging?: Params): DynamicModule {
    return {
      module: ObservabilityModule,
      imports: logging === undefined ? [] : [LoggerModule.forRoot(logging)],
      providers: [Metrics, { provide: JobRunObserver, useExisting: Metrics }],
      exports: [Metrics, JobRunObserver],
    };
  }
}
