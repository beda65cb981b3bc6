import { AccessGrants, ActorUser, PermissionsService, UsersService } from '@dam/access';
import { AssetFilter, AssetQueries } from '@dam/assets';
import type { DomainEvents } from '@dam/events';
import type { UrlService } from '@dam/http';
import { LightboxEntity } from './entities/lightbox.entity';
import { LightboxesRepository, LightboxMember } from './lightboxes.repository';
import { LightboxesService } from './lightboxes.service';

const owner: ActorUser = { id: 7, username: 'owner', isAdmin: false, isApplication: false };
const grants = { all: false } as AccessGrants;

function lightbox(id: number): LightboxEntity {
  return Object.assign(new LightboxEntity(), { id, userId: owner.id, name: `box ${id}`, description: null });
}

/** Lightboxes 1 and 2 share asset 11; asset 13 is hidden from the owner and 14 no longer exists. */
function service(calls: Array<{ ids: number[]; filter: AssetFilter }>): LightboxesService {
  const members: LightboxMember[] = [
    { lightboxId: 1, assetId: 10 },
    { lightboxId: 1, assetId: 11 },
    { lightboxId: 1, assetId: 13 },
    { lightboxId: 2, assetId: 11 },
    { lightboxId: 2, assetId: 14 },
  ];
  const repository = {
    listOf: async () => [lightbox(1), lightbox(2), lightbox(3)],
    members: async (ids: number[]) => members.filter((member) => ids.includes(member.lightboxId)),
  } as unknown as LightboxesRepository;
  const assets = {
    matching: async (ids: number[], filter: AssetFilter) => {
      calls.push({ ids, filter });
      return ids.filter((id) => id === 10 || id === 11);
    },
  } as unknown as AssetQueries;
  const permissions = { grantsFor: async () => grants } as unknown as PermissionsService;
  return new LightboxesService(
    repository,
    {} as UsersService,
    permissions,
    assets,
    {} as DomainEvents,
    {} as UrlService,
  );
}

describe('LightboxesService sizes', () => {
  it('counts per lightbox the assets its owner can see, asking the assets area once', async () => {
    const calls: Array<{ ids: number[]; filter: AssetFilter }> = [];
    const { views, total } = await service(calls).list(owner, owner.id);
    expect(total).toBe(3);
    expect(views.map((view) => [view.lightbox.id, view.size])).toEqual([
      [1, 2],
      [2, 1],
      [3, 0],
    ]);
    expect(calls).toHaveLength(1);
    expect([...calls[0].ids].sort()).toEqual([10, 11, 13, 14]);
    expect(calls[0].filter).toEqual({ visibleTo: { actor: owner, grants } });
  });

  it('asks nothing of the assets area for empty lightboxes', async () => {
    const calls: Array<{ ids: number[]; filter: AssetFilter }> = [];
    await service(calls).list(owner, owner.id, { page: 3, offset: 2, pageSize: 1 });
    expect(calls).toHaveLength(0);
  });
});
