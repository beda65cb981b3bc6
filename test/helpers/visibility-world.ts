import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { grant, insertAccessLevel, insertCategory } from './asset-permission-fixtures';
import { bearerRequests, pathOf } from './bearer-requests';
import { contentRequests } from './content-fixtures';
import { assetFactory, ATTRIBUTE } from './search-fixtures';
import { TestApp } from './test-app';

/**
 * The world of the visibility matrix (test/visibility-matrix.e2e-spec.ts): one fresh access level L
 * and category C holding one asset per approval state, all uploaded by the same user, and the actors
 * who look at them. What each actor holds on L is declared here once; the spec's model reads it.
 */
export const STATES = [
  'unsubmitted',
  'uploadPending',
  'live',
  'pendingEdit',
  'pendingContent',
  'archived',
  'trashed',
] as const;
export type State = (typeof STATES)[number];

export const ACTORS = ['uploader', 'viewer', 'approver', 'admin', 'application'] as const;
export type Actor = (typeof ACTORS)[number];

/** `user`: an ordinary user holding `permissions` on L; `admin`: isAdmin; `application`: client credentials. */
export const ACTOR_RIGHTS: Record<Actor, { role: 'user' | 'admin' | 'application'; permissions: string[] }> =
  {
    uploader: { role: 'user', permissions: ['view', 'download', 'uploadWithApproval'] },
    viewer: { role: 'user', permissions: ['view', 'download'] },
    approver: { role: 'user', permissions: ['view', 'approve'] },
    admin: { role: 'admin', permissions: [] },
    application: { role: 'application', permissions: [] },
  };

/** Every asset of the matrix is uploaded (POST /rest/assets) by this actor. */
export const UPLOADED_BY: Actor = 'uploader';

/** `plain`: no filter; `full`/`none`: approvalStatuses; `unsubmitted`: unsubmitted=true. */
export type SearchMode = 'plain' | 'full' | 'none' | 'unsubmitted';
export const SEARCH_MODES: SearchMode[] = ['plain', 'full', 'none', 'unsubmitted'];

/** The query string of a search mode, after `keywords=...`. */
export function searchFilter(mode: SearchMode): string {
  if (mode === 'plain') return '';
  return mode === 'unsubmitted' ? '&unsubmitted=true' : `&approvalStatuses=${mode}`;
}

export interface SearchObservation {
  /** asset id -> `approved` of its summary, for the matrix assets found. */
  approved: Map<number, boolean>;
  total: string | undefined;
}

export interface LightboxObservation {
  /** HTTP status of POST .../contents by the owner, per asset id. */
  added: Map<number, number>;
  /** asset id -> `approved` (a string) of each content item. */
  listed: Map<number, string>;
  size: number;
}

export class VisibilityWorld {
  level: number;
  category: number;
  /** A word found only in the titles of the matrix assets. */
  keyword = `vismatrix${randomBytes(4).toString('hex')}`;
  assets = {} as Record<State, number>;
  users = {} as Record<Actor, { id: number; token: string }>;
  private readonly memo = new Map<string, Promise<unknown>>();

  private constructor(private readonly t: TestApp) {}

  private get api() {
    return bearerRequests(() => this.t);
  }

  static async create(t: TestApp): Promise<VisibilityWorld> {
    const world = new VisibilityWorld(t);
    await world.build();
    return world;
  }

  stateOf(assetId: number): State | undefined {
    return STATES.find((state) => this.assets[state] === assetId);
  }

  private async build(): Promise<void> {
    const { t, api } = this;
    this.level = await insertAccessLevel(t);
    this.category = await insertCategory(t);
    for (const actor of ACTORS) {
      const { role, permissions } = ACTOR_RIGHTS[actor];
      if (role === 'application') {
        const me = await api.get('/rest/authenticated-user', t.adminToken).expect(200);
        this.users[actor] = { id: me.body.id as number, token: t.adminToken };
        continue;
      }
      const user = await t.createUser({ admin: role === 'admin' });
      if (permissions.length > 0) await grant(t, user.id, [this.level], permissions);
      this.users[actor] = { id: user.id, token: user.token };
    }
    const editor = await t.createUser();
    await grant(t, editor.id, [this.level], ['view', 'editWithApproval']);

    const createAsset = assetFactory(() => t);
    for (const state of STATES) {
      this.assets[state] = await createAsset({
        levels: [this.level],
        categories: [this.category],
        token: this.users[UPLOADED_BY].token,
        submit: state !== 'unsubmitted',
        values: [[ATTRIBUTE.title, `${this.keyword} ${state}`]],
      });
    }
    // The uploader holds only uploadWithApproval: every submitted asset starts awaiting approval.
    for (const state of ['live', 'pendingEdit', 'pendingContent', 'archived'] as const) {
      await api.post(`/rest/assets/${this.assets[state]}/approve`, this.users.approver.token, {}).expect(200);
    }
    const pendingEdit = await api
      .put(`/rest/assets/${this.assets.pendingEdit}`, editor.token, {
        attributes: [{ id: String(ATTRIBUTE.title), value: 'a retitled asset' }],
      })
      .expect(200);
    expect(pendingEdit.body.approved).toBe(false);
    const { upload } = contentRequests(() => t);
    const withContent = `/rest/assets/${this.assets.pendingContent}`;
    await upload(withContent, t.adminToken, Buffer.from('the current file'), 'current.txt').expect(200);
    await upload(withContent, editor.token, Buffer.from('a file awaiting approval'), 'new.txt').expect(200);
    await api
      .put(`/rest/assets/${this.assets.archived}`, this.users.admin.token, { archived: true })
      .expect(200);
    // An upload awaiting approval, deleted into the trash (restorable): gone from every surface and queue.
    await api.delete(`/rest/assets/${this.assets.trashed}`, this.users.admin.token).expect(204);
  }

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, make());
    return this.memo.get(key) as Promise<T>;
  }

  /** GET /rest/assets/{id} as the actor: the status and, when 200, `approved`. */
  getAsset(actor: Actor, state: State): Promise<{ status: number; approved?: boolean }> {
    return this.once(`get ${actor} ${state}`, async () => {
      const response = await this.api.get(`/rest/assets/${this.assets[state]}`, this.users[actor].token);
      return response.status === 200
        ? { status: 200, approved: response.body.approved as boolean }
        : { status: response.status };
    });
  }

  /** GET /rest/asset-search?keywords=<keyword>[&approvalStatuses=full|none|&unsubmitted=true] as the actor. */
  search(actor: Actor, mode: SearchMode): Promise<SearchObservation> {
    return this.once(`search ${actor} ${mode}`, async () => {
      const response = await this.api
        .get(`/rest/asset-search?keywords=${this.keyword}${searchFilter(mode)}`, this.users[actor].token)
        .expect(200);
      const summaries = response.body as Array<{ id: number; approved: boolean }>;
      return {
        approved: new Map(summaries.map((summary) => [summary.id, summary.approved])),
        total: response.headers['x-total-count'] as string | undefined,
      };
    });
  }

  /** `count` of L in access-level search, or of C in category search, for the actor (`userId`). */
  count(actor: Actor, surface: 'access-level-search' | 'category-search'): Promise<number | undefined> {
    return this.once(`count ${actor} ${surface}`, async () => {
      const parentId = surface === 'access-level-search' ? this.level : this.category;
      // The application user is counted without userId: "every asset" (spec 4.1 item 9, 4.2).
      const asUser = ACTOR_RIGHTS[actor].role === 'application' ? '' : `&userId=${this.users[actor].id}`;
      const response = await this.api
        .get(`/rest/${surface}?parentId=${parentId}&count=true${asUser}`, this.t.adminToken)
        .expect(200);
      const [node] = response.body as Array<{ id: number | string; count?: number }>;
      expect(String(node.id)).toBe(String(parentId));
      return node.count;
    });
  }

  /**
   * A new lightbox of the actor, who adds the matrix assets (those they cannot see are refused); the
   * refused ones but the trashed one are then put in straight through the database, as if they had been
   * added while visible, so the lightbox holds all of them. Then its contents and size, read by the owner.
   */
  lightbox(actor: Actor): Promise<LightboxObservation> {
    return this.once(`lightbox ${actor}`, async () => {
      const { id: ownerId, token } = this.users[actor];
      const created = await this.api
        .post(`/rest/users/${ownerId}/lightboxes`, token, { name: `matrix ${actor}` })
        .expect(201);
      const contents = pathOf(created.body.lightboxContentsUrl as string);
      const lightboxId = Number(contents.split('/')[5]);
      const added = new Map<number, number>();
      for (const state of STATES) {
        const assetId = this.assets[state];
        const response = await this.api.post(contents, token, {
          url: `${this.t.baseUrl}/rest/assets/${assetId}`,
        });
        added.set(assetId, response.status);
        // A trashed asset has no row a membership could refer to.
        if (response.status !== 201 && state !== 'trashed') {
          await this.t.app
            .get(DataSource)
            .query('INSERT INTO lightbox_assets (lightbox_id, asset_id, added_at) VALUES (?, ?, ?)', [
              lightboxId,
              assetId,
              new Date().toISOString().slice(0, 19).replace('T', ' '),
            ]);
        }
      }
      const items = (await this.api.get(contents, token).expect(200)).body as Array<{
        url: string;
        approved: string;
      }>;
      const lightbox = await this.api.get(contents.replace(/\/contents$/, ''), token).expect(200);
      return {
        added,
        listed: new Map(items.map((item) => [Number(item.url.split('/').pop()), item.approved])),
        size: lightbox.body.size as number,
      };
    });
  }

  /** The matrix assets in the pending upload or edit approvals list (URL from the root resource). */
  pendingQueue(actor: Actor, which: 'upload' | 'edit'): Promise<number[]> {
    return this.once(`queue ${actor} ${which}`, async () => {
      const root = await this.api.get('/rest', this.t.adminToken).expect(200);
      const key = which === 'upload' ? 'pendingUploadApprovalsUrl' : 'pendingEditApprovalsUrl';
      const url = root.body.api_version_1_3[key] as string;
      const response = await this.api
        .get(`${pathOf(url)}?pageSize=1000`, this.users[actor].token)
        .expect(200);
      const ids = (response.body as Array<{ assetInstanceUrl: string }>).map((item) =>
        Number(item.assetInstanceUrl.split('/').pop()),
      );
      return ids.filter((id) => this.stateOf(id) !== undefined);
    });
  }
}
