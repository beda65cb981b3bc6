import { Injectable, Logger } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { ObjectStorage } from './object-storage.port';

/** Reports the object store under `storage`: down when ping fails or takes longer than the timeout. */
@Injectable()
export class StorageHealthIndicator {
  private readonly logger = new Logger('StorageHealth');

  constructor(
    private readonly storage: ObjectStorage,
    private readonly health: HealthIndicatorService,
  ) {}

  async pingCheck(key = 'storage', timeoutMs = 3000): Promise<HealthIndicatorResult> {
    const indicator = this.health.check(key);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([this.storage.ping(), timeout]);
      return indicator.up();
    } catch (error) {
      // The details (endpoints, paths) go to the log, not to the public health answer.
      this.logger.warn(
        `object store check failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      return indicator.down({ message: 'the object store cannot be reached' });
    } finally {
      clearTimeout(timer);
    }
  }
}
