import { createHash, Hash } from 'node:crypto';
import { pipeline, Readable, Transform } from 'node:stream';
import { InvalidInput } from '@dam/errors';

/** Node's name of each hash this service checks, by its RFC 9530 name (and `md5` for Content-MD5). */
const NODE_ALGORITHMS = { 'sha-256': 'sha256', 'sha-512': 'sha512', md5: 'md5' } as const;
export type DigestAlgorithm = keyof typeof NODE_ALGORITHMS;

const DIGEST_BYTES: Record<DigestAlgorithm, number> = { 'sha-256': 32, 'sha-512': 64, md5: 16 };

/** One digest a client announced for the bytes it sends. */
export interface ExpectedDigest {
  algorithm: DigestAlgorithm;
  value: Buffer;
  /** The header it came in, for messages. */
  header: string;
}

/** Longer headers are refused unread. */
const MAX_FIELD_LENGTH = 2000;
/** An RFC 8941 dictionary member whose value is a byte sequence: `key=:base64:` (parameters ignored). */
const MEMBER = /^([a-z*][a-z0-9_.*-]*)=:([A-Za-z0-9+/]*={0,2}):(?:;.*)?$/;

function single(raw: string | string[] | undefined): string | undefined {
  return Array.isArray(raw) ? raw.join(', ') : raw;
}

/**
 * The digests of an RFC 9530 `Content-Digest` or `Repr-Digest` field (`sha-256=:<base64>:, ...`) among
 * `supported`; undefined when the header is absent. Members of other algorithms are ignored, but a field
 * with none of `supported`, a malformed field, or a digest of the wrong length is a 400.
 */
export function parseDigestField(
  raw: string | string[] | undefined,
  header: string,
  supported: readonly DigestAlgorithm[],
): ExpectedDigest[] | undefined {
  const field = single(raw);
  if (field === undefined) return undefined;
  const malformed = () =>
    new InvalidInput(`the ${header} header must look like ${supported[0]}=:<base64 digest>:`);
  if (field.length > MAX_FIELD_LENGTH) throw malformed();
  const found: ExpectedDigest[] = [];
  for (const member of field.split(',')) {
    const match = MEMBER.exec(member.trim());
    if (match === null) throw malformed();
    const algorithm = match[1] as DigestAlgorithm;
    if (!supported.includes(algorithm)) continue;
    const value = Buffer.from(match[2], 'base64');
    if (value.length !== DIGEST_BYTES[algorithm]) throw malformed();
    found.push({ algorithm, value, header });
  }
  if (found.length === 0) {
    throw new InvalidInput(`the ${header} header carries no ${supported.join(' or ')} digest`);
  }
  return found;
}

/** The `Content-MD5` header (RFC 1864: base64 of the 16-byte MD5), or undefined when absent. */
export function parseContentMd5(raw: string | string[] | undefined): ExpectedDigest | undefined {
  const field = single(raw)?.trim();
  if (field === undefined) return undefined;
  const value = /^[A-Za-z0-9+/]{22}==$/.test(field) ? Buffer.from(field, 'base64') : undefined;
  if (value?.length !== 16)
    throw new InvalidInput('the Content-MD5 header must be the base64 of an MD5 digest');
  return { algorithm: 'md5', value, header: 'Content-MD5' };
}

/** `sha-256=:<base64>:` for a hex SHA-256, as sent in `Repr-Digest`. */
export function sha256DigestField(hex: string): string {
  return `sha-256=:${Buffer.from(hex, 'hex').toString('base64')}:`;
}

/** The digests the bytes did not match (which the client announced); answered as a 400. */
export class DigestMismatch extends InvalidInput {
  constructor(subject: string, expected: ExpectedDigest) {
    super(`${subject} does not match its ${expected.header} (${expected.algorithm})`);
  }
}

/**
 * Checks bytes against the digests a client announced. `meter()` hashes the bytes flowing through it for
 * every expected algorithm but SHA-256, which object storage computes anyway and `verify` is given.
 */
export class DigestCheck {
  private readonly hashes = new Map<DigestAlgorithm, Hash>();

  constructor(readonly expected: readonly ExpectedDigest[]) {}

  get isEmpty(): boolean {
    return this.expected.length === 0;
  }

  /**
   * `source` passed through `meter()` (or `source` itself when there is nothing to hash beyond SHA-256); an
   * error of `source` fails the returned stream too.
   */
  measured(source: Readable): Readable {
    if (this.expected.every(({ algorithm }) => algorithm === 'sha-256')) return source;
    const meter = this.meter();
    pipeline(source, meter, () => undefined);
    return meter;
  }

  meter(): Transform {
    for (const { algorithm } of this.expected) {
      if (algorithm !== 'sha-256' && !this.hashes.has(algorithm)) {
        this.hashes.set(algorithm, createHash(NODE_ALGORITHMS[algorithm]));
      }
    }
    const hashes = [...this.hashes.values()];
    return new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        for (const hash of hashes) hash.update(chunk);
        callback(null, chunk);
      },
    });
  }

  /** Throws DigestMismatch naming `subject` when a digest differs; `sha256` is the hex SHA-256 of the bytes. */
  verify(subject: string, sha256: string): void {
    const computed = new Map<DigestAlgorithm, Buffer>();
    for (const [algorithm, hash] of this.hashes) computed.set(algorithm, hash.digest());
    computed.set('sha-256', Buffer.from(sha256, 'hex'));
    for (const expected of this.expected) {
      if (!expected.value.equals(computed.get(expected.algorithm) ?? Buffer.alloc(0))) {
        throw new DigestMismatch(subject, expected);
      }
    }
  }
}
