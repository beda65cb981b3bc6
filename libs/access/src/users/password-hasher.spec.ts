import { AppConfig } from '@dam/core';
import { PasswordHasher } from './password-hasher';

const hasherAt = (cost?: number) =>
  new PasswordHasher(AppConfig.fromEnv(cost === undefined ? {} : { DAM_HASH_COST: String(cost) }));

describe('PasswordHasher', () => {
  it('hashes with N = 2^15 unless DAM_HASH_COST says otherwise', async () => {
    expect(await hasherAt().hash('secret')).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await hasherAt(10).hash('secret')).toMatch(/^scrypt\$1024\$8\$1\$/);
  });

  it('verifies a hash with the cost stored in it, whatever the cost of new hashes', async () => {
    const cheap = await hasherAt(10).hash('secret');
    expect(await hasherAt().verify('secret', cheap)).toBe(true);
    expect(await hasherAt().verify('wrong', cheap)).toBe(false);
    expect(await hasherAt(10).verify('secret', await hasherAt().hash('secret'))).toBe(true);
  });

  it('has a dummy hash of the cost of new hashes, which matches no secret', async () => {
    expect(hasherAt().dummyHash).toBe(
      'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    );
    const hasher = hasherAt(10);
    expect(hasher.dummyHash).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await hasher.verify('', hasher.dummyHash)).toBe(false);
  });
});
