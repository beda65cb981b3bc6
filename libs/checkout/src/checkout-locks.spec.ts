import { ActorUser } from '@dam/access';
import { StateConflict } from '@dam/errors';
import { AssetCheckedOut, CHECKED_OUT_TO_ANOTHER_USER } from './checkout-errors';
import { CheckoutLocks } from './checkout-locks';
import { CheckoutRepository } from './checkout.repository';

const user = (id: number, role: Partial<ActorUser> = {}): ActorUser => ({
  id,
  username: `user${id}`,
  isAdmin: false,
  isApplication: false,
  ...role,
});

function locksWithHolder(holderId: number | null): CheckoutLocks {
  const checkouts = { holderOf: async () => holderId } as unknown as CheckoutRepository;
  return new CheckoutLocks(checkouts);
}

describe('AssetCheckedOut', () => {
  it('is a state conflict (409) with the wire message', () => {
    const error = new AssetCheckedOut();
    expect(error).toBeInstanceOf(StateConflict);
    expect(error.kind).toBe('state-conflict');
    expect(error.message).toBe('the asset is checked out to another user');
    expect(error.message).toBe(CHECKED_OUT_TO_ANOTHER_USER);
  });
});

describe('CheckoutLocks.assertEditableBy', () => {
  it.each([
    ['nobody holds it', null, user(2), false],
    ['the actor holds it', 2, user(2), false],
    ['someone else holds it', 3, user(2), true],
    ['someone else holds it, actor is an admin', 3, user(2, { isAdmin: true }), false],
    ['someone else holds it, actor is the application user', 3, user(2, { isApplication: true }), false],
  ])('%s', async (_case, holderId, actor, locked) => {
    const outcome = locksWithHolder(holderId).assertEditableBy(actor, 10);
    if (locked) await expect(outcome).rejects.toBeInstanceOf(AssetCheckedOut);
    else await expect(outcome).resolves.toBeUndefined();
  });
});
