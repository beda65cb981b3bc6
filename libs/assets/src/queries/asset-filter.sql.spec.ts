import { AccessGrants, Permission, Viewer } from '@dam/access';
import { DataSource } from 'typeorm';
import { AssetRecord } from '../ports/asset-state';
import { awaitsUploadApproval, hasPendingEdit, isApproved } from '../rules/approval-state';
import { assetVisibleTo, visibleLevelSets } from '../rules/asset-visibility';
import {
  approvedSql,
  awaitingUploadApprovalSql,
  filterConditions,
  pendingEditSql,
  visibilitySql,
} from './asset-filter.sql';
import { AssetCountRepository } from './asset-count.repository';
import { usernameRankSql } from './page.sql';
import { QuerySources } from './query-sources';
import { SqlParams } from './sql-params';

describe('filterConditions', () => {
  it('adds no condition for a viewer who sees everything, and matches nothing for empty link lists', () => {
    const params = new SqlParams();
    const everything: Viewer = { actor: ACTOR, grants: AccessGrants.everything([1]) };
    expect(filterConditions({ visibleTo: everything }, params)).toEqual([]);
    expect(
      filterConditions(
        {
          categoryIds: [],
          attributes: { conjunction: 'OR', conditions: [{ kind: 'addedBy', userIds: [] }] },
        },
        params,
      ),
    ).toEqual(['(1 = 0)', '1 = 0']);
  });

  it('matches "added by" on user ids without reading users', () => {
    const params = new SqlParams();
    expect(
      filterConditions(
        { attributes: { conjunction: 'AND', conditions: [{ kind: 'addedBy', userIds: [4] }] } },
        params,
      ),
    ).toEqual(['(a.added_by_user_id IN (:...s0))']);
  });

  it('ranks uploaders by the given username order', () => {
    expect(usernameRankSql([7, 3])).toBe('CASE a.added_by_user_id WHEN 7 THEN 0 WHEN 3 THEN 1 END');
    expect(usernameRankSql([])).toBe('NULL');
  });
});

const ACTOR = { id: 1, username: 'actor', isAdmin: false, isApplication: false };
const LEVELS = [1, 2];
const LEVEL_SETS = [[1], [2], [1, 2], []];
const PERMISSION_SETS: Permission[][] = [[], ['view'], ['approve'], ['view', 'approve']];

interface Fixture {
  record: AssetRecord;
  accessLevelIds: number[];
  editRow: boolean;
}

/** Every combination of the states the rules look at. */
function everyAsset(): Fixture[] {
  const fixtures: Fixture[] = [];
  const flags = [false, true];
  let id = 0;
  for (const submitted of flags)
    for (const uploadPending of flags)
      for (const contentPending of flags)
        for (const editRow of flags)
          for (const addedByUserId of [null, 1, 2])
            for (const accessLevelIds of LEVEL_SETS) {
              id += 1;
              const at = new Date(0);
              fixtures.push({
                record: {
                  id,
                  submitted,
                  uploadPending,
                  contentPending,
                  archived: false,
                  contentSha256: null,
                  type: 'File',
                  assetTypeId: null,
                  addedByUserId,
                  createdAt: at,
                  updatedAt: at,
                },
                accessLevelIds,
                editRow,
              });
            }
  return fixtures;
}

/** Every viewer: privileged, and each combination of permissions on each level. */
function everyViewer(): Viewer[] {
  const viewers: Viewer[] = [{ actor: ACTOR, grants: AccessGrants.everything(LEVELS) }];
  for (const first of PERMISSION_SETS)
    for (const second of PERMISSION_SETS) {
      const byLevel = new Map<number, Set<Permission>>([
        [1, new Set(first)],
        [2, new Set(second)],
      ]);
      viewers.push({ actor: ACTOR, grants: AccessGrants.of(byLevel, LEVELS) });
    }
  return viewers;
}

/** The SQL forms of the rules must select exactly the assets the in-memory rules accept. */
describe('the SQL forms of the asset rules', () => {
  let dataSource: DataSource;
  const fixtures = everyAsset();
  /** The sets of levels of the fixtures (as asset_level_sets numbers them), by their ordered ids. */
  const levelSets = new Map<string, { levelSetId: number; accessLevelIds: number[] }>();

  beforeAll(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query(
      'CREATE TABLE assets (id INTEGER PRIMARY KEY, submitted BOOLEAN NOT NULL, upload_pending BOOLEAN NOT NULL, ' +
        'content_pending BOOLEAN NOT NULL, added_by_user_id INTEGER, level_set_id INTEGER)',
    );
    await dataSource.query(
      'CREATE TABLE asset_access_levels (asset_id INTEGER, access_level_id INTEGER, PRIMARY KEY (asset_id, access_level_id))',
    );
    await dataSource.query('CREATE TABLE asset_pending_edits (asset_id INTEGER PRIMARY KEY)');
    for (const { record, accessLevelIds, editRow } of fixtures) {
      const levels = [...accessLevelIds].sort((a, b) => a - b).join(',');
      if (!levelSets.has(levels)) levelSets.set(levels, { levelSetId: levelSets.size + 1, accessLevelIds });
      await dataSource.query('INSERT INTO assets VALUES (?, ?, ?, ?, ?, ?)', [
        record.id,
        Number(record.submitted),
        Number(record.uploadPending),
        Number(record.contentPending),
        record.addedByUserId,
        levelSets.get(levels)?.levelSetId,
      ]);
      for (const levelId of accessLevelIds) {
        await dataSource.query('INSERT INTO asset_access_levels VALUES (?, ?)', [record.id, levelId]);
      }
      if (editRow) await dataSource.query('INSERT INTO asset_pending_edits VALUES (?)', [record.id]);
    }
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  async function selected(condition: (params: SqlParams) => string | undefined): Promise<number[]> {
    const params = new SqlParams();
    const sql = condition(params);
    const query = dataSource.createQueryBuilder().select('a.id', 'id').from('assets', 'a').orderBy('a.id');
    if (sql !== undefined) query.where(sql, params.values);
    const rows: Array<{ id: number }> = await query.getRawMany();
    return rows.map((row) => Number(row.id));
  }

  const ids = (accept: (fixture: Fixture) => boolean): number[] =>
    fixtures.filter(accept).map((fixture) => fixture.record.id);
  const pendingEdit = (fixture: Fixture): boolean => hasPendingEdit(fixture.record, fixture.editRow);

  it('visibility: visibilitySql agrees with assetVisibleTo for every viewer', async () => {
    for (const viewer of everyViewer()) {
      expect(await selected((params) => visibilitySql(viewer, params))).toEqual(
        ids((fixture) =>
          assetVisibleTo(viewer, { asset: fixture.record, accessLevelIds: fixture.accessLevelIds }),
        ),
      );
    }
  });

  it('visibility through the sets of levels: the row test agrees with assetVisibleTo for every viewer', async () => {
    expect(levelSets.size).toBe(LEVEL_SETS.length);
    for (const viewer of everyViewer()) {
      const sets = visibleLevelSets(viewer, levelSets.values());
      expect(await selected((params) => visibilitySql(viewer, params, true, sets))).toEqual(
        ids((fixture) =>
          assetVisibleTo(viewer, { asset: fixture.record, accessLevelIds: fixture.accessLevelIds }),
        ),
      );
    }
  });

  it('approval state: approved, pending edit and awaiting upload approval agree, both ways', async () => {
    const approved = ids((fixture) => isApproved(fixture.record, pendingEdit(fixture)));
    expect(await selected((params) => approvedSql(params))).toEqual(approved);
    expect(await selected((params) => filterConditions({ approved: false }, params)[0])).toEqual(
      ids((fixture) => !isApproved(fixture.record, pendingEdit(fixture))),
    );
    expect(await selected((params) => pendingEditSql(params))).toEqual(ids(pendingEdit));
    expect(await selected((params) => filterConditions({ pendingEdit: false }, params)[0])).toEqual(
      ids((fixture) => !pendingEdit(fixture)),
    );
    expect(await selected((params) => awaitingUploadApprovalSql(params))).toEqual(
      ids((fixture) => awaitsUploadApproval(fixture.record)),
    );
    expect(await selected((params) => filterConditions({ submitted: false }, params)[0])).toEqual(
      ids((fixture) => !fixture.record.submitted),
    );
  });

  it('counts per level: the fast visible form equals the general one and the rule', async () => {
    const repository = new AssetCountRepository(new QuerySources(dataSource));
    for (const viewer of everyViewer()) {
      const viewable = LEVELS.filter((id) => viewer.grants.has(id, 'view'));
      const fast = viewer.grants.all
        ? await repository.countPer('accessLevel', { where: [], params: {} }, LEVELS)
        : await repository.countVisiblePerViewableLevel(
            ACTOR.id,
            viewer.grants.levelsWith('approve'),
            viewable,
          );
      const params = new SqlParams();
      const visible = visibilitySql(viewer, params);
      const general = await repository.countPer(
        'accessLevel',
        { where: visible === undefined ? [] : [visible], params: params.values },
        viewable.length === LEVELS.length || viewer.grants.all ? LEVELS : viewable,
      );
      for (const level of viewer.grants.all ? LEVELS : viewable) {
        const expected = fixtures.filter(
          (fixture) =>
            fixture.accessLevelIds.includes(level) &&
            assetVisibleTo(viewer, { asset: fixture.record, accessLevelIds: fixture.accessLevelIds }),
        ).length;
        expect(fast.get(level) ?? 0).toBe(expected);
        expect(general.get(level) ?? 0).toBe(expected);
      }
    }
  });
});
