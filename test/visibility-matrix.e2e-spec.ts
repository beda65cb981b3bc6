import { bearerRequests } from './helpers/bearer-requests';
import { TestApp } from './helpers/test-app';
import {
  Actor,
  ACTOR_RIGHTS,
  ACTORS,
  SEARCH_MODES,
  searchFilter,
  SearchMode,
  State,
  STATES,
  UPLOADED_BY,
  VisibilityWorld,
} from './helpers/visibility-world';

/**
 * Every surface agrees with GET /rest/assets/{id} on which assets an actor sees and on their approval
 * state: one asset per approval state, five actors, and each surface checked cell by cell against ONE
 * model of DESIGN §5 and docs/api-decisions.md ("Assets", "Asset search", "Lightboxes"). Asset search
 * adds its filters to visibility: by default it finds the visible submitted assets only.
 */

// ---- The model -------------------------------------------------------------------------------------

/** What each state is made of (see VisibilityWorld.build). */
const FACTS: Record<
  State,
  { submitted: boolean; uploadPending: boolean; pendingEdit: boolean; trashed?: boolean }
> = {
  unsubmitted: { submitted: false, uploadPending: false, pendingEdit: false },
  uploadPending: { submitted: true, uploadPending: true, pendingEdit: false },
  live: { submitted: true, uploadPending: false, pendingEdit: false },
  pendingEdit: { submitted: true, uploadPending: false, pendingEdit: true }, // attribute edit
  pendingContent: { submitted: true, uploadPending: false, pendingEdit: true }, // file awaiting approval
  archived: { submitted: true, uploadPending: false, pendingEdit: false },
  trashed: { submitted: true, uploadPending: true, pendingEdit: false, trashed: true }, // then deleted
};

const isPrivileged = (actor: Actor): boolean => ACTOR_RIGHTS[actor].role !== 'user';
/** Permission on L, the only level of every matrix asset (so "on one" and "on every" level coincide). */
const holds = (actor: Actor, permission: string): boolean =>
  isPrivileged(actor) || ACTOR_RIGHTS[actor].permissions.includes(permission);
const isLive = (state: State): boolean => FACTS[state].submitted && !FACTS[state].uploadPending;

/**
 * DESIGN §5: admins and the application user see everything; the uploader always sees their own;
 * others need view on one of its levels, and the asset must be live unless they may approve it. Nobody
 * sees a trashed asset.
 */
function expectedVisible(state: State, actor: Actor): boolean {
  // DESIGN §12 "Trash": a deleted asset is on no surface for anyone while it waits in the trash.
  if (FACTS[state].trashed === true) return false;
  if (isPrivileged(actor) || actor === UPLOADED_BY) return true;
  return holds(actor, 'view') && (isLive(state) || holds(actor, 'approve'));
}

/**
 * docs/api-decisions.md ("Assets"): `approved` is false while the asset awaits upload approval or has
 * edits (attributes or a file) awaiting approval, else true. An unsubmitted asset is therefore approved
 * (its approval question is decided when it is submitted), as test/asset-search-visibility asserts too.
 */
function expectedApproved(state: State): boolean {
  return !FACTS[state].uploadPending && !FACTS[state].pendingEdit;
}

const visibleStates = (actor: Actor): State[] => STATES.filter((state) => expectedVisible(state, actor));

/**
 * docs/api-decisions.md ("Asset search"): search = visible AND submitted, unless unsubmitted=true, which
 * is visible AND unsubmitted; full = approved, none = not approved. Filters, not visibility: the counts
 * of access-level and category search stay every visible asset (default search + unsubmitted=true).
 */
function expectedFound(state: State, actor: Actor, mode: SearchMode): boolean {
  if (!expectedVisible(state, actor)) return false;
  if (FACTS[state].submitted !== (mode !== 'unsubmitted')) return false;
  return mode === 'plain' || mode === 'unsubmitted' || (mode === 'full') === expectedApproved(state);
}

/** The approval queues hold submitted assets awaiting approval that the actor may approve. */
function expectedQueued(state: State, actor: Actor, which: 'upload' | 'edit'): boolean {
  const waiting =
    which === 'upload' ? FACTS[state].submitted && FACTS[state].uploadPending : FACTS[state].pendingEdit;
  return waiting && FACTS[state].trashed !== true && holds(actor, 'approve');
}

// ---- The cells -------------------------------------------------------------------------------------

const pairs = ACTORS.flatMap((actor) => STATES.map((state) => ({ actor, state })));

describe('visibility matrix: every surface agrees with GET on what an actor sees and on approved', () => {
  let t: TestApp;
  let w: VisibilityWorld;

  beforeAll(async () => {
    t = await TestApp.start();
    w = await VisibilityWorld.create(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('GET /rest/assets/{id}', () => {
    const cells = pairs.map((cell) => {
      const expected = expectedVisible(cell.state, cell.actor)
        ? { status: 200, approved: expectedApproved(cell.state) }
        : { status: 404 };
      return { ...cell, expected, answer: `${expected.status} approved=${expected.approved ?? '-'}` };
    });
    it.each(cells)('$actor, $state: $answer', async ({ actor, state, expected }) => {
      expect(await w.getAsset(actor, state)).toEqual(expected);
    });
  });

  describe('GET /rest/asset-search?keywords=...', () => {
    const filterOf = (mode: SearchMode) => (mode === 'plain' ? 'no filter' : searchFilter(mode).slice(1));
    const cells = SEARCH_MODES.flatMap((mode) =>
      pairs.map((cell) => {
        const found = expectedFound(cell.state, cell.actor, mode);
        const expected = { found, approved: found ? expectedApproved(cell.state) : undefined };
        const answer = found ? `found, approved=${expected.approved}` : 'absent';
        return { ...cell, mode, filter: filterOf(mode), expected, answer };
      }),
    );
    it.each(cells)('$filter, $actor, $state: $answer', async ({ actor, state, mode, expected }) => {
      const approved = (await w.search(actor, mode)).approved.get(w.assets[state]);
      expect({ found: approved !== undefined, approved }).toEqual(expected);
    });

    const totals = SEARCH_MODES.flatMap((mode) =>
      ACTORS.map((actor) => ({
        actor,
        mode,
        filter: filterOf(mode),
        total: String(STATES.filter((state) => expectedFound(state, actor, mode)).length),
      })),
    );
    it.each(totals)('$filter, $actor: X-Total-Count $total', async ({ mode, actor, total }) => {
      expect((await w.search(actor, mode)).total).toBe(total);
    });
  });

  describe('count=true for L and C, with userId', () => {
    it.each(
      (['access-level-search', 'category-search'] as const).flatMap((surface) =>
        ACTORS.map((actor) => ({ surface, actor, count: visibleStates(actor).length })),
      ),
    )('/rest/$surface, $actor: count=$count', async ({ surface, actor, count }) => {
      expect(await w.count(actor, surface)).toBe(count);
    });

    // Search leaves unsubmitted assets out by default; the counts do not: they add up.
    it.each(
      (['access-level-search', 'category-search'] as const).flatMap((surface) =>
        ACTORS.map((actor) => ({ surface, actor })),
      ),
    )(
      '/rest/$surface, $actor: count = default search + unsubmitted=true search',
      async ({ surface, actor }) => {
        const [count, plain, unsubmitted] = await Promise.all([
          w.count(actor, surface),
          w.search(actor, 'plain'),
          w.search(actor, 'unsubmitted'),
        ]);
        expect(count).toBe(Number(plain.total) + Number(unsubmitted.total));
      },
    );
  });

  describe("lightbox contents (the owner's own lightbox)", () => {
    const cells = pairs.map((cell) => {
      const visible = expectedVisible(cell.state, cell.actor);
      const expected = {
        listed: visible,
        approved: visible ? String(expectedApproved(cell.state)) : undefined,
      };
      return {
        ...cell,
        status: visible ? 201 : 400,
        expected,
        answer: visible ? `listed, approved="${expected.approved}"` : 'left out',
      };
    });
    it.each(cells)('adding: $actor, $state: $status', async ({ actor, state, status }) => {
      expect((await w.lightbox(actor)).added.get(w.assets[state])).toBe(status);
    });

    it.each(cells)('listing: $actor, $state: $answer', async ({ actor, state, expected }) => {
      const approved = (await w.lightbox(actor)).listed.get(w.assets[state]);
      expect({ listed: approved !== undefined, approved }).toEqual(expected);
    });

    it.each(ACTORS.map((actor) => ({ actor, size: visibleStates(actor).length })))(
      'size: $actor: $size',
      async ({ actor, size }) => {
        expect((await w.lightbox(actor)).size).toBe(size);
      },
    );
  });

  describe('pending approval queues (pendingUploadApprovalsUrl, pendingEditApprovalsUrl)', () => {
    const cells = (['upload', 'edit'] as const).flatMap((which) =>
      pairs.map((cell) => {
        const queued = expectedQueued(cell.state, cell.actor, which);
        return { ...cell, which, queued, answer: queued ? 'listed' : 'absent' };
      }),
    );
    it.each(cells)('$which queue, $actor, $state: $answer', async ({ actor, state, which, queued }) => {
      expect((await w.pendingQueue(actor, which)).includes(w.assets[state])).toBe(queued);
    });
  });

  it('regression: search leaves an unsubmitted asset out unless unsubmitted=true, whatever approvalStatuses says', async () => {
    const api = bearerRequests(() => t);
    const id = w.assets.unsubmitted;
    const found = async (filter: string): Promise<boolean> => {
      const search = `/rest/asset-search?keywords=${w.keyword}${filter}`;
      const body = (await api.get(search, t.adminToken).expect(200)).body as Array<{ id: number }>;
      return body.some((item) => item.id === id);
    };

    await api.get(`/rest/assets/${id}`, t.adminToken).expect(200);
    expect(await found('')).toBe(false);
    expect(await found('&approvalStatuses=full')).toBe(false);
    expect(await found('&approvalStatuses=full,none')).toBe(false);
    expect(await found('&unsubmitted=false')).toBe(false);
    expect(await found('&unsubmitted=true')).toBe(true);
    expect(await found('&unsubmitted=true&approvalStatuses=full')).toBe(true);
  });

  it('regression: an asset whose new file awaits edit approval is approved: false on GET and in asset search, found by approvalStatuses=none only', async () => {
    const api = bearerRequests(() => t);
    const id = w.assets.pendingContent;
    const summary = async (filter: string): Promise<{ id: number; approved: boolean } | undefined> => {
      const search = `/rest/asset-search?keywords=${w.keyword}${filter}`;
      const found = (await api.get(search, t.adminToken).expect(200)).body as Array<{
        id: number;
        approved: boolean;
      }>;
      return found.find((item) => item.id === id);
    };

    expect((await api.get(`/rest/assets/${id}`, t.adminToken).expect(200)).body.approved).toBe(false);
    expect((await summary(''))?.approved).toBe(false);
    expect(await summary('&approvalStatuses=full')).toBeUndefined();
    expect((await summary('&approvalStatuses=none'))?.approved).toBe(false);
  });
});
