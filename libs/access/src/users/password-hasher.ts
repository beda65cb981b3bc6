import { Injectable } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { HashingGate } from './hashing-gate';

const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function derive(secret: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * scrypt, a deliberately slow memory-hard hash, for passwords and client secrets. The parameters are
 * stored with each hash (`scrypt$N$r$p$salt$hash`) so they can be raised without invalidating old ones;
 * new hashes get N = 2^DAM_HASH_COST (2^15 unless the test suite lowers it).
 * Every hash passes one gate (DAM_HASH_CONCURRENCY at once, DAM_HASH_MAX_WAITING waiting, else 503).
 */
@Injectable()
export class PasswordHasher {
  private readonly gate: HashingGate;
  private readonly n: number;
  /**
   * Verified in place of a missing hash (unknown user or client), so that their answer takes as long as a
   * known one's and timing does not reveal which exist: it costs what a new hash costs, and matches nothing.
   */
  readonly dummyHash: string;

  constructor(config: AppConfig) {
    this.gate = new HashingGate(config.hashConcurrency, config.hashMaxWaiting);
    this.n = 2 ** config.hashCost;
    const zeros = (bytes: number) => Buffer.alloc(bytes).toString('base64');
    this.dummyHash = ['scrypt', this.n, R, P, zeros(16), zeros(KEY_LENGTH)].join('$');
  }

  async hash(secret: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await this.gate.run(() => derive(secret, salt, this.n, R, P));
    return ['scrypt', this.n, R, P, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async verify(secret: string, stored: string | null): Promise<boolean> {
    const parts = stored?.split('$') ?? [];
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [n, r, p] = parts.slice(1, 4).map(Number);
    const expected = Buffer.from(parts[5], 'base64');
    const actual = await this.gate.run(() => derive(secret, Buffer.from(parts[4], 'base64'), n, r, p));
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}
