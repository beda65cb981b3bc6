/**
 * Seeding for bench/asset-search.bench.ts: 1,000,000 assets with 10 attribute values each and their
 * search tokens, loaded with LOAD DATA LOCAL INFILE from generated streams. Secondary indexes and
 * foreign keys of the big tables are dropped for the load and re-created afterwards from the
 * migrated definitions (SHOW CREATE TABLE), so the final schema is exactly the migrated one.
 */
import { Readable } from 'node:stream';
import type { Connection } from 'mysql2/promise';
import { AttributeType } from '@dam/attributes';
import { tokenRows } from '@dam/core';

export interface SeedPlan {
  assets: number;
  levelIds: number[];
  categoryIds: number[];
  /** Attribute id per role: title, description, keywords, filename, fileSize, colour, region, rank, shot, notes. */
  attributes: Record<AttributeRole, { id: number; typeId: number }>;
}

export type AttributeRole =
  | 'title'
  | 'description'
  | 'keywords'
  | 'filename'
  | 'fileSize'
  | 'colour'
  | 'region'
  | 'rank'
  | 'shot'
  | 'notes';

export const COLOURS = [
  'Red',
  'Blue',
  'Green',
  'Yellow',
  'Black',
  'White',
  'Orange',
  'Purple',
  'Grey',
  'Brown',
  'Pink',
  'Teal',
];
export const REGIONS = Array.from({ length: 50 }, (_, i) => `Region ${String(i + 1).padStart(2, '0')}`);
const SYLLABLES = [
  'ba',
  'ke',
  'lo',
  'mi',
  'nu',
  'ra',
  'so',
  'ti',
  'vu',
  'ze',
  'da',
  'fo',
  'gi',
  'ha',
  'ju',
  'pe',
];
/** 4,096 pseudo-words, picked with a Zipf-like skew (word r has weight 1/r). */
export const WORDS = Array.from({ length: 4096 }, (_, i) =>
  [i % 16, (i >> 4) % 16, (i >> 8) % 16].map((s) => SYLLABLES[s]).join(''),
);

export function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

const HARMONIC = WORDS.reduce((sum, _, i) => sum + 1 / (i + 1), 0);
const CUMULATIVE = (() => {
  let sum = 0;
  return WORDS.map((_, i) => (sum += 1 / (i + 1) / HARMONIC));
})();

function word(next: () => number): string {
  const roll = next();
  let low = 0;
  let high = CUMULATIVE.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (CUMULATIVE[mid] < roll) low = mid + 1;
    else high = mid;
  }
  return WORDS[low];
}

const words = (next: () => number, count: number): string =>
  Array.from({ length: count }, () => word(next)).join(' ');

interface SeedAsset {
  id: number;
  createdAt: string;
  updatedAt: string;
  level: number;
  category: number;
  submitted: boolean;
  pending: boolean;
  values: Array<[AttributeRole, string]>;
}

/** Deterministic: the same plan gives the same library. */
function* assets(plan: SeedPlan): Generator<SeedAsset> {
  const next = random(7);
  const start = Date.UTC(2021, 0, 1);
  for (let id = 1; id <= plan.assets; id++) {
    const created = start + Math.floor(next() * 3 * 365 * 86_400_000);
    const updated = created + Math.floor(next() * 90 * 86_400_000);
    const roll = next();
    yield {
      id,
      createdAt: new Date(created).toISOString().slice(0, 19).replace('T', ' '),
      updatedAt: new Date(updated).toISOString().slice(0, 19).replace('T', ' '),
      level: plan.levelIds[Math.floor(next() * plan.levelIds.length)],
      category: plan.categoryIds[Math.floor(next() * plan.categoryIds.length)],
      submitted: roll >= 0.03,
      pending: roll >= 0.03 && roll < 0.05,
      values: [
        ['title', words(next, 3)],
        ['description', words(next, 4)],
        ['keywords', words(next, 2)],
        ['filename', `IMG_${id}.jpg`],
        ['fileSize', String(1000 + Math.floor(next() * 9_000_000))],
        ['colour', COLOURS[Math.floor(next() * COLOURS.length)]],
        ['region', REGIONS[Math.floor(next() * REGIONS.length)]],
        ['rank', String(Math.floor(next() * 1000))],
        ['shot', new Date(created - Math.floor(next() * 365) * 86_400_000).toISOString().slice(0, 10)],
        ['notes', words(next, 1)],
      ],
    };
  }
}

const tsv = (fields: Array<string | number>): string => `${fields.join('\t')}\n`;

/** Lines in batches, so the stream is not one call per row. */
function stream(lines: () => Generator<string>): Readable {
  return Readable.from(
    (function* () {
      let batch = '';
      for (const line of lines()) {
        batch += line;
        if (batch.length > 1 << 20) {
          yield Buffer.from(batch);
          batch = '';
        }
      }
      if (batch !== '') yield Buffer.from(batch);
    })(),
  );
}

async function load(
  connection: Connection,
  table: string,
  columns: string[],
  lines: () => Generator<string>,
): Promise<void> {
  await connection.query({
    sql: `LOAD DATA LOCAL INFILE 'stream' INTO TABLE ${table} FIELDS TERMINATED BY '\\t' LINES TERMINATED BY '\\n' (${columns.join(', ')})`,
    infileStreamFactory: () => stream(lines),
  });
}

/** Drops the secondary indexes and foreign keys of `table`; returns the ALTER that puts them back. */
async function stripIndexes(connection: Connection, table: string): Promise<string | undefined> {
  const [rows] = await connection.query(`SHOW CREATE TABLE ${table}`);
  const ddl = String((rows as Array<Record<string, string>>)[0]['Create Table']);
  const keys = ddl
    .split('\n')
    .map((line) => line.trim().replace(/,$/, ''))
    .filter((line) => /^(KEY|CONSTRAINT) /.test(line));
  if (keys.length === 0) return undefined;
  const drops = keys.map((line) =>
    line.startsWith('KEY') ? `DROP INDEX ${line.split(' ')[1]}` : `DROP FOREIGN KEY ${line.split(' ')[1]}`,
  );
  const foreign = drops.filter((drop) => drop.startsWith('DROP FOREIGN'));
  if (foreign.length > 0) await connection.query(`ALTER TABLE ${table} ${foreign.join(', ')}`);
  const indexes = drops.filter((drop) => drop.startsWith('DROP INDEX'));
  if (indexes.length > 0) await connection.query(`ALTER TABLE ${table} ${indexes.join(', ')}`);
  return `ALTER TABLE ${table} ${keys.map((line) => `ADD ${line}`).join(', ')}`;
}

/** Loads assets, their level and category, values and tokens; returns seconds per step. */
export async function seed(
  connection: Connection,
  plan: SeedPlan,
  log: (line: string) => void,
): Promise<void> {
  await connection.query('SET foreign_key_checks = 0, unique_checks = 0');
  // A loaded machine (or a `nice`d seed) may leave the stream silent longer than the server's 30 s
  // `net_read_timeout`, which then drops the connection mid-LOAD DATA (ECONNRESET).
  await connection.query('SET SESSION net_read_timeout = 3600, net_write_timeout = 3600');
  const tables = [
    'assets',
    'asset_access_levels',
    'asset_categories',
    'asset_attribute_values',
    'asset_search_tokens',
    'asset_sort_numbers',
    'asset_sort_texts',
  ];
  const restore: string[] = [];
  for (const table of tables) {
    const alter = await stripIndexes(connection, table);
    if (alter !== undefined) restore.push(alter);
  }
  const step = async (name: string, work: () => Promise<void>): Promise<void> => {
    const started = Date.now();
    await work();
    log(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
  await step('assets', () =>
    load(
      connection,
      'assets',
      ['id', 'submitted', 'upload_pending', 'archived', 'type', 'created_at', 'updated_at'],
      function* () {
        // The four types from the content in turn, so that the type facet has values to count.
        const types = ['File', 'Image', 'Video', 'Audio'];
        for (const a of assets(plan)) {
          const type = types[a.id % types.length];
          yield tsv([a.id, a.submitted ? 1 : 0, a.pending ? 1 : 0, 0, type, a.createdAt, a.updatedAt]);
        }
      },
    ),
  );
  await step('asset_access_levels', () =>
    load(connection, 'asset_access_levels', ['asset_id', 'access_level_id'], function* () {
      for (const a of assets(plan)) yield tsv([a.id, a.level]);
    }),
  );
  await step('asset_categories', () =>
    load(connection, 'asset_categories', ['asset_id', 'category_id'], function* () {
      for (const a of assets(plan)) yield tsv([a.id, a.category]);
    }),
  );
  await step('asset_attribute_values', () =>
    load(
      connection,
      'asset_attribute_values',
      ['asset_id', 'attribute_id', 'language', 'value'],
      function* () {
        for (const a of assets(plan)) {
          const rows = a.values
            .map(([role, value]) => [plan.attributes[role].id, value] as const)
            .sort((x, y) => x[0] - y[0]);
          for (const [attributeId, value] of rows) yield tsv([a.id, attributeId, '', value]);
        }
      },
    ),
  );
  await step('asset_search_tokens (sorted by primary key)', () => loadTokens(connection, plan));
  await step('asset_sort_numbers (INSERT ... SELECT of the numeric values)', () =>
    connection
      .query(
        'INSERT INTO asset_sort_numbers (asset_id, attribute_id, value) ' +
          'SELECT v.asset_id, v.attribute_id, CAST(v.value AS DOUBLE) FROM asset_attribute_values v ' +
          "WHERE v.attribute_id IN (?) AND v.language = '' ORDER BY v.asset_id, v.attribute_id",
        [
          Object.values(plan.attributes)
            .filter((attribute) => attribute.typeId === AttributeType.Numeric)
            .map((attribute) => attribute.id),
        ],
      )
      .then(() => undefined),
  );
  await step('asset_sort_texts (INSERT ... SELECT of the other values, their first 64 characters)', () =>
    connection
      .query(
        'INSERT INTO asset_sort_texts (attribute_id, asset_id, value, complete) ' +
          'SELECT v.attribute_id, v.asset_id, SUBSTR(v.value, 1, 64), CHAR_LENGTH(v.value) <= 64 ' +
          "FROM asset_attribute_values v WHERE v.attribute_id NOT IN (?) AND v.language = '' " +
          'ORDER BY v.attribute_id, v.asset_id',
        [
          Object.values(plan.attributes)
            .filter((attribute) => attribute.typeId === AttributeType.Numeric)
            .map((attribute) => attribute.id),
        ],
      )
      .then(() => undefined),
  );
  for (const alter of restore)
    await step(alter.slice(0, alter.indexOf(' ADD')), () => connection.query(alter).then(() => undefined));
  await connection.query('SET foreign_key_checks = 1, unique_checks = 1');
  await step('ANALYZE', () => connection.query(`ANALYZE TABLE ${tables.join(', ')}`).then(() => undefined));
}

/**
 * Tokens in primary-key order (token, asset, attribute) so InnoDB appends instead of splitting pages:
 * every distinct token gets its rank in byte order, then a counting sort by rank keeps asset order.
 */
async function loadTokens(connection: Connection, plan: SeedPlan): Promise<void> {
  const distinct = new Map<string, number>();
  const tokenOf = new Int32Array(plan.assets * 24);
  const assetOf = new Int32Array(plan.assets * 24);
  const attributeOf = new Int16Array(plan.assets * 24);
  let count = 0;
  for (const a of assets(plan)) {
    const values = a.values.map(([role, value]) => ({
      assetId: a.id,
      attributeId: plan.attributes[role].id,
      typeId: plan.attributes[role].typeId,
      value,
    }));
    for (const [token, assetId, attributeId] of tokenRows(values)) {
      let index = distinct.get(token);
      if (index === undefined) distinct.set(token, (index = distinct.size));
      tokenOf[count] = index;
      assetOf[count] = assetId;
      attributeOf[count] = attributeId;
      count++;
    }
  }
  const names = [...distinct.keys()];
  const order = names
    .map((_, i) => i)
    .sort((x, y) => (names[x] < names[y] ? -1 : names[x] > names[y] ? 1 : 0));
  const rank = new Int32Array(names.length);
  order.forEach((index, position) => (rank[index] = position));
  const starts = new Int32Array(names.length + 1);
  for (let i = 0; i < count; i++) starts[rank[tokenOf[i]] + 1]++;
  for (let r = 0; r < names.length; r++) starts[r + 1] += starts[r];
  const sorted = new Int32Array(count);
  const fill = starts.slice();
  for (let i = 0; i < count; i++) sorted[fill[rank[tokenOf[i]]]++] = i;
  await load(connection, 'asset_search_tokens', ['token', 'asset_id', 'attribute_id'], function* () {
    for (let r = 0; r < names.length; r++) {
      const token = names[order[r]];
      // Within one token, rows are in asset order; an asset's attributes come in value order, sort them.
      const rows = Array.from(sorted.subarray(starts[r], starts[r + 1]));
      rows.sort((x, y) => assetOf[x] - assetOf[y] || attributeOf[x] - attributeOf[y]);
      for (const i of rows) yield tsv([token, assetOf[i], attributeOf[i]]);
    }
  });
}
