import { RenditionsService } from '@dam/asset-content';
import { AppConfig } from '@dam/core';
import { Settings } from '@dam/database';
import { JobContext, JobRegistry, JobSummary } from '@dam/jobs';
import { ObjectStorage } from '@dam/storage';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { contentRequests, png, waitForRedirect } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { assetFactory, ATTRIBUTE, searcher } from './helpers/search-fixtures';
import { TestApp } from './helpers/test-app';

/**
 * What the maintenance jobs of issue 18 do, run through the JobRegistry with a small context (the runner,
 * its leases and run history are tested in maintenance-jobs.e2e-spec.ts): the orphan sweep, integrity
 * verification, rendition regeneration, the search index rebuild and the token purge, on either matrix.
 */
describe('maintenance job effects', () => {
  let t: TestApp;
  let level: number;
  let storage: ObjectStorage;
  let db: DataSource;
  const { newAsset, upload } = contentRequests(() => t);
  const createAsset = assetFactory(() => t);
  const search = searcher(() => t);

  beforeAll(async () => {
    t = await TestApp.start({ env: { DAM_ORPHAN_GRACE_HOURS: '0' } });
    level = await new Grants(t).topLevel('Default');
    storage = t.app.get(ObjectStorage);
    db = t.app.get(DataSource);
  });
  afterAll(() => t?.close());

  function context(dryRun: boolean): JobContext & { summary: JobSummary } {
    const summary: JobSummary = { examined: 0, changed: 0, reported: 0, details: [] };
    return {
      dryRun,
      summary,
      note: (detail) => {
        if (summary.details.length < 100) summary.details.push(detail);
      },
      checkpoint: () => Promise.resolve(),
    };
  }

  async function run(name: string, dryRun = false): Promise<JobSummary> {
    const job = t.app.get(JobRegistry).get(name);
    if (job === undefined) throw new Error(`job ${name} is not registered`);
    const ctx = context(dryRun);
    await job.run(ctx);
    return ctx.summary;
  }

  /** A new asset with `body` as its content; its id and the stored key of its file. */
  async function assetWith(body: Buffer, filename = 'file.bin'): Promise<{ id: number; key: string }> {
    const asset = await newAsset(level);
    await upload(asset, t.adminToken, body, filename).expect(200);
    const id = Number(asset.split('/').pop());
    const [row] = await db.query(
      'SELECT storage_key FROM asset_files WHERE asset_id = ? AND is_current = ?',
      [id, true],
    );
    return { id, key: row.storage_key as string };
  }

  async function readAll(key: string): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const part of await storage.get(key)) parts.push(part as Buffer);
    return Buffer.concat(parts);
  }

  it('registers every job of the issue with a schedule and a description', () => {
    const jobs = t.app.get(JobRegistry).all();
    for (const name of [
      'sweep-orphan-objects',
      'verify-integrity',
      'regenerate-renditions',
      'rebuild-search-index',
      'purge-expired-tokens',
    ]) {
      const job = jobs.find((candidate) => candidate.name === name);
      expect([name, typeof job?.defaultCron, typeof job?.description]).toEqual([name, 'string', 'string']);
    }
  });

  describe('sweep-orphan-objects', () => {
    it('lists an orphan object on a dry run, then deletes it; keeps referenced and unowned objects', async () => {
      const kept = await assetWith(randomBytes(2000));
      const orphan = `assets/${kept.id}/orphan-${randomBytes(4).toString('hex')}`;
      const stray = `stray/${randomBytes(4).toString('hex')}`;
      await storage.put(orphan, Readable.from([randomBytes(100)]));
      await storage.put(stray, Readable.from([randomBytes(10)]));

      const dry = await run('sweep-orphan-objects', true);
      expect(dry.details).toContain(`orphan, would delete: ${orphan}`);
      expect(dry.changed).toBe(0);
      expect(await storage.stat(orphan)).toBeDefined();

      const real = await run('sweep-orphan-objects');
      expect(real.details).toContain(`orphan, deleted: ${orphan}`);
      expect(real.details).toContain(`under no registered prefix, kept: ${stray}`);
      expect(real.details.filter((line) => line.includes(kept.key))).toEqual([]);
      expect(await storage.stat(orphan)).toBeUndefined();
      expect(await storage.stat(stray)).toBeDefined();
      expect(await storage.stat(kept.key)).toBeDefined();
      await storage.delete(stray);
    });

    it('keeps the objects of temp chunks, renditions and access level images, and sweeps their orphans', async () => {
      const temp = await t.http
        .post('/rest/temp-chunked-files')
        .auth(t.adminToken, { type: 'bearer' })
        .send({})
        .expect(201);
      await t.http
        .put(`${new URL(temp.headers.location as string).pathname}/0`)
        .auth(t.adminToken, { type: 'bearer' })
        .set('Content-Type', 'application/octet-stream')
        .send(randomBytes(300))
        .expect((response) => expect(response.status).toBeLessThan(300));
      await t.http
        .put(`/rest/access-levels/${level}/image`)
        .auth(t.adminToken, { type: 'bearer' })
        .set('Content-Type', 'application/octet-stream')
        .set('Content-Disposition', 'attachment; filename="logo.png"')
        .send(await png(20, 20))
        .expect((response) => expect(response.status).toBeLessThan(300));
      const image = await assetWith(await png(64, 48), 'small.png');
      await t.app.get(RenditionsService).idle();
      const referenced: string[] = [];
      for (const prefix of ['temp/', 'access-level-images/', 'renditions/', 'assets/']) {
        const before: string[] = [];
        for await (const key of storage.list(prefix)) before.push(key);
        expect([prefix, before.length > 0]).toEqual([prefix, true]);
        referenced.push(...before);
      }
      const orphans = [
        `temp/${temp.body.id}/9-feedface`,
        `access-level-images/${level}/orphan`,
        `renditions/${image.id}/thumbnail-orphan`,
      ];
      for (const key of orphans) await storage.put(key, Readable.from([randomBytes(10)]));

      const summary = await run('sweep-orphan-objects');
      for (const key of orphans) expect(summary.details).toContain(`orphan, deleted: ${key}`);
      for (const key of referenced) expect([key, await storage.stat(key)]).toEqual([key, expect.anything()]);
    });

    it('reports a row whose object is missing and never deletes the row', async () => {
      const asset = await assetWith(randomBytes(500));
      await storage.delete(asset.key);
      const summary = await run('sweep-orphan-objects');
      expect(summary.details).toContain(`missing object of a assets/ row: ${asset.key}`);
      const rows = await db.query('SELECT id FROM asset_files WHERE storage_key = ?', [asset.key]);
      expect(rows).toHaveLength(1);
    });
  });

  describe('verify-integrity', () => {
    it('reports a flipped byte in a stored object and changes nothing', async () => {
      const body = randomBytes(4096);
      const asset = await assetWith(body);
      const flipped = Buffer.from(body);
      flipped[1000] ^= 0xff;
      if (t.config.storageDriver === 'fs') {
        await fs.writeFile(path.join(t.config.dataDir, 'storage', ...asset.key.split('/')), flipped);
      } else {
        await storage.put(asset.key, Readable.from([flipped]));
      }

      const summary = await run('verify-integrity');
      const lines = summary.details.filter((line) => line.includes(asset.key));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^mismatch: /);
      expect(summary.reported).toBeGreaterThanOrEqual(1);
      expect(summary.changed).toBe(0);
      expect((await readAll(asset.key)).equals(flipped)).toBe(true);
    });

    it('reads at most the configured bytes per run and resumes where the last run stopped', async () => {
      const config = t.app.get(AppConfig);
      const settings = t.app.get(Settings);
      const cursor = async () => Number(await settings.get('verify-integrity.cursor'));
      const saved = config.verifyIntegrityMaxBytesPerRun;
      config.verifyIntegrityMaxBytesPerRun = 1; // one file per run
      try {
        const files: Array<{ id: number }> = await db.query('SELECT id FROM asset_files ORDER BY id');
        const ids = files.map((file) => Number(file.id));
        await settings.set('verify-integrity.cursor', '0');
        const cursors: number[] = [];
        for (let i = 0; i < ids.length; i++) {
          expect((await run('verify-integrity')).examined).toBe(1);
          cursors.push(await cursor());
        }
        expect(cursors).toEqual(ids);
        // Past the last file, the next run starts over; a dry run does not move the cursor.
        expect((await run('verify-integrity')).examined).toBe(1);
        expect(await cursor()).toBe(ids[0]);
        expect((await run('verify-integrity', true)).examined).toBe(1);
        expect(await cursor()).toBe(ids[0]);
      } finally {
        config.verifyIntegrityMaxBytesPerRun = saved;
      }
    });
  });

  describe('regenerate-renditions', () => {
    it('regenerates a rendition whose object or row was deleted; a dry run only reports', async () => {
      const image = await assetWith(await png(640, 480), 'image.png');
      await t.app.get(RenditionsService).idle();
      const rows: Array<{ kind: string; storage_key: string }> = await db.query(
        'SELECT kind, storage_key FROM asset_renditions WHERE asset_id = ?',
        [image.id],
      );
      expect(rows.map((row) => row.kind).sort()).toEqual(['display', 'large', 'preview', 'thumbnail']);
      const thumbnail = rows.find((row) => row.kind === 'thumbnail');
      await storage.delete(thumbnail?.storage_key ?? '');
      await db.query('DELETE FROM asset_renditions WHERE asset_id = ? AND kind = ?', [image.id, 'preview']);

      const dry = await run('regenerate-renditions', true);
      expect(dry.details).toContain(
        `asset ${image.id}: would regenerate (missing thumbnail object, preview)`,
      );
      expect(dry.changed).toBe(0);
      expect(await db.query('SELECT kind FROM asset_renditions WHERE asset_id = ?', [image.id])).toHaveLength(
        3,
      );

      const real = await run('regenerate-renditions');
      expect(real.details).toContain(
        `asset ${image.id}: regenerated (was missing thumbnail object, preview)`,
      );
      const after: Array<{ storage_key: string }> = await db.query(
        'SELECT storage_key FROM asset_renditions WHERE asset_id = ?',
        [image.id],
      );
      expect(after).toHaveLength(4);
      for (const row of after) expect(await storage.stat(row.storage_key)).toBeDefined();
      const redirect = await waitForRedirect(t, `/rest/assets/${image.id}/thumbnail`, t.adminToken);
      expect(redirect.status).toBe(303);

      const again = await run('regenerate-renditions');
      expect(again.details.filter((line) => line.startsWith(`asset ${image.id}:`))).toEqual([]);
    });
  });

  describe('rebuild-search-index', () => {
    it('restores search results after the token table is emptied; a dry run only counts', async () => {
      const word = `zebra${randomBytes(3).toString('hex')}`;
      const id = await createAsset({ levels: [level], values: [[ATTRIBUTE.title, `A ${word} crossing`]] });
      expect(await search(`keywords=${word}`)).toEqual([id]);
      const [{ count: tokens }] = await db.query('SELECT COUNT(*) AS count FROM asset_search_tokens');
      await db.query('DELETE FROM asset_search_tokens');
      expect(await search(`keywords=${word}`)).toEqual([]);

      const dry = await run('rebuild-search-index', true);
      expect(dry.examined).toBeGreaterThanOrEqual(1);
      expect(dry.changed).toBe(0);
      expect(await search(`keywords=${word}`)).toEqual([]);

      const real = await run('rebuild-search-index');
      expect(real.changed).toBe(real.examined);
      expect(await search(`keywords=${word}`)).toEqual([id]);
      const [{ count: rebuilt }] = await db.query('SELECT COUNT(*) AS count FROM asset_search_tokens');
      expect(Number(rebuilt)).toBe(Number(tokens));

      await run('rebuild-search-index'); // idempotent
      const [{ count: twice }] = await db.query('SELECT COUNT(*) AS count FROM asset_search_tokens');
      expect(Number(twice)).toBe(Number(tokens));
    });
  });

  describe('purge-expired-tokens', () => {
    it('deletes tokens expired more than a day ago, revoked or not; a dry run counts them', async () => {
      await t.clientCredentialsToken();
      await t.clientCredentialsToken();
      await t.clientCredentialsToken();
      const [old, revoked, recent]: Array<{ id: number }> = await db.query(
        'SELECT id FROM oauth_tokens ORDER BY id DESC LIMIT 3',
      );
      const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
      const set = (id: number, values: Record<string, Date>) =>
        db.createQueryBuilder().update('oauth_tokens').set(values).where('id = :id', { id }).execute();
      await set(old.id, { expiresAt: hoursAgo(49) });
      await set(revoked.id, { expiresAt: hoursAgo(30), revokedAt: hoursAgo(40) });
      await set(recent.id, { expiresAt: hoursAgo(1) });
      const ids = () =>
        db
          .query('SELECT id FROM oauth_tokens WHERE id IN (?, ?, ?) ORDER BY id', [
            old.id,
            revoked.id,
            recent.id,
          ])
          .then((rows: Array<{ id: number }>) => rows.map((row) => Number(row.id)));

      const dry = await run('purge-expired-tokens', true);
      expect(dry.reported).toBe(2);
      expect(await ids()).toHaveLength(3);

      const real = await run('purge-expired-tokens');
      expect(real.changed).toBe(2);
      expect(await ids()).toEqual([Number(recent.id)]);
      await t.http.get('/rest/users').auth(t.adminToken, { type: 'bearer' }).expect(200);
    });
  });

  describe('through the admin API', () => {
    it('a dry run of sweep-orphan-objects lists the orphan in its summary and keeps it', async () => {
      const orphan = `renditions/999999/orphan-${randomBytes(4).toString('hex')}`;
      await storage.put(orphan, Readable.from([randomBytes(10)]));
      const started = await t.http
        .post('/rest/admin/jobs/sweep-orphan-objects/runs?dryRun=true')
        .auth(t.adminToken, { type: 'bearer' })
        .expect(202);
      const location = new URL(started.headers.location as string).pathname;
      let result: { status: string; dryRun: boolean; summary: JobSummary | null } = started.body;
      for (let i = 0; i < 200 && ['queued', 'running'].includes(result.status); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        result = (await t.http.get(location).auth(t.adminToken, { type: 'bearer' }).expect(200)).body;
      }
      expect([result.status, result.dryRun]).toEqual(['succeeded', true]);
      expect(result.summary?.details).toContain(`orphan, would delete: ${orphan}`);
      expect(await storage.stat(orphan)).toBeDefined();
      await storage.delete(orphan);
    });
  });
});
