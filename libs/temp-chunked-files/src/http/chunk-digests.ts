import { DigestCheck, ExpectedDigest, parseContentMd5, parseDigestField } from '@dam/http';
import type { Request } from 'express';

/**
 * The digests a client announced for a chunk: `Content-Digest` (RFC 9530; sha-256 or sha-512) and
 * `Content-MD5`. Empty when it sent neither; a malformed header is a 400.
 */
export function chunkDigests(request: Request): DigestCheck {
  const expected: ExpectedDigest[] = [
    ...(parseDigestField(request.headers['content-digest'], 'Content-Digest', ['sha-256', 'sha-512']) ?? []),
  ];
  const md5 = parseContentMd5(request.headers['content-md5']);
  if (md5 !== undefined) expected.push(md5);
  return new DigestCheck(expected);
}
