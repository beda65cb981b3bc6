import type { Request } from 'express';
import { TooManyRequests } from '@dam/errors';
import { BodyRefusals } from './body-refusals';

const request = (ip: string, token?: string) =>
  ({
    ip,
    socket: {},
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  }) as unknown as Request;

describe('BodyRefusals', () => {
  it('lets an address and a token through until their budget is spent, each on its own', async () => {
    const refusals = new BodyRefusals(2);
    refusals.record(request('10.0.0.1', 'a'));
    await refusals.check(request('10.0.0.1', 'b'));
    refusals.record(request('10.0.0.1', 'b'));
    await expect(refusals.check(request('10.0.0.1'))).rejects.toBeInstanceOf(TooManyRequests);
    // Token b has one refusal: from another address it passes; token a's second spends it.
    await refusals.check(request('10.0.0.2', 'b'));
    refusals.record(request('10.0.0.3', 'a'));
    const error = await refusals.check(request('10.0.0.4', 'a')).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TooManyRequests);
    expect((error as TooManyRequests).retryAfterSeconds).toBeGreaterThan(55);
  });

  it('counts nothing when the budget is 0', async () => {
    const refusals = new BodyRefusals(0);
    for (let i = 0; i < 5; i++) refusals.record(request('10.0.0.1'));
    await refusals.check(request('10.0.0.1'));
  });

  it('forgets the oldest addresses, not the newest, when a flood of addresses fills its counters', async () => {
    const refusals = new BodyRefusals(1);
    for (let i = 0; i < 10_001; i++) refusals.record(request(`10.1.${i >> 8}.${i & 255}`));
    await refusals.check(request('10.1.0.0'));
    await expect(refusals.check(request('10.1.39.16'))).rejects.toBeInstanceOf(TooManyRequests);
  });
});
