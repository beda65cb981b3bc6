import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig } from '@dam/core';
import { isUniqueViolation } from '@dam/database';

/**
 * Leases in the `job_leases` table keep a scheduled job to one instance when several API instances
 * share a database. A lease is taken by an atomic conditional UPDATE (free or expired or already ours)
 * or by the INSERT of its first row; whoever loses either race simply does not run the job.
 */
@Injectable()
export class LeaseService {
  private readonly logger = new Logger('Jobs');
  /** Identifies this process among the instances. */
  readonly holder = `${process.pid}-${randomUUID().slice(0, 8)}`;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async tryAcquire(name: string, ttlMs: number, now = new Date()): Promise<boolean> {
    // Whole seconds, rounded up: a DATETIME column keeps no fraction (MariaDB truncates it), and a lease
    // stored a fraction early would let another instance in before the holder's period is over.
    const expiresAt = new Date(Math.ceil((now.getTime() + ttlMs) / 1000) * 1000);
    const updated = await this.dataSource
      .createQueryBuilder()
      .update('job_leases')
      .set({ holder: this.holder, expires_at: expiresAt })
      .where('name = :name AND (expires_at < :now OR holder = :holder)', { name, now, holder: this.holder })
      .execute();
    if ((updated.affected ?? 0) > 0) return true;
    try {
      await this.dataSource
        .createQueryBuilder()
        .insert()
        .into('job_leases')
        .values({ name, holder: this.holder, expires_at: expiresAt })
        .execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async release(name: string): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .delete()
      .from('job_leases')
      .where('name = :name AND holder = :holder', { name, holder: this.holder })
      .execute();
  }

  /**
   * Runs `job` when jobs are enabled here and this instance wins the lease, which it keeps for `ttlMs`
   * (the job's period) rather than releasing it when the job ends: every instance's timer fires once per
   * period, at its own moment, and only the holder may renew, so the job runs once per period in all.
   * If the holder dies, another instance takes over once the lease expires. Failures are logged, never
   * thrown into the scheduler. Returns whether the job ran.
   */
  async runExclusive(name: string, ttlMs: number, job: () => Promise<void>): Promise<boolean> {
    if (!this.config.jobsEnabled) return false;
    try {
      if (!(await this.tryAcquire(name, ttlMs))) return false;
      const started = Date.now();
      await job();
      this.logger.debug(`job ${name} ran on ${this.holder} in ${Date.now() - started} ms`);
      return true;
    } catch (error) {
      this.logger.error(`job ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }
}
