/**
 * The audit entry's own cost, without HTTP (issue 31): transactions on a migrated SQLite database (WAL,
 * synchronous=NORMAL as the service runs it), each one write (the outbox row every change has), with
 * and without one audit entry, written the way AuditRepository.insert writes it now (one INSERT, every
 * value a parameter) and the way it did before (the entity repository's insert, which puts the target
 * id into the SQL text on SQLite). Rounds alternate; microseconds per transaction, median of the rounds.
 *
 *   npx ts-node -r tsconfig-paths/register --transpile-only bench/audit-insert.bench.ts
 *
 * Settings: BENCH_ROUNDS (5), BENCH_TRANSACTIONS (3000 per kind and round).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataSource, EntityManager } from 'typeorm';
import { AuditEntryEntity } from '../libs/audit/src/entities/audit-entry.entity';
import { AuditRepository } from '../libs/audit/src/audit.repository';
import { MIGRATIONS } from '../libs/migrations/src';
import { median } from './overview-figures';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 3000);

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-audit-insert-'));
  const dataSource = new DataSource({
    type: 'better-sqlite3',
    database: path.join(dir, 'dam.sqlite'),
    entities: [AuditEntryEntity],
    migrations: MIGRATIONS,
    prepareDatabase: (db: { pragma(statement: string): unknown }) => {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    },
  });
  await dataSource.initialize();
  await dataSource.runMigrations();
  const repository = new AuditRepository(dataSource);
  let n = 0;
  const entry = () => ({
    at: new Date(),
    actorUserId: 1,
    clientId: 'bench',
    requestId: `req-${n}`,
    action: 'asset.updated',
    targetType: 'assets',
    targetId: 1 + (n++ % 1000),
    changes: '{"Title":{"before":"a","after":"b"}}',
  });
  const outbox = (manager: EntityManager) =>
    manager.query(
      "INSERT INTO domain_events (event_id, type, data, occurred_at) VALUES (?, 'asset.updated', '{}', ?)",
      [`evt_${n++}`, new Date().toISOString().replace('T', ' ').replace('Z', '')],
    );
  const kinds: Record<string, (manager: EntityManager) => Promise<unknown>> = {
    'no entry (DAM_AUDIT_ENABLED=false)': async () => undefined,
    'entry, one parameterized INSERT (now)': (manager) => repository.insert(manager, [entry()]),
    'entry, the entity repository (before)': (manager) =>
      manager.getRepository(AuditEntryEntity).insert([entry()]),
  };
  const times: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? Object.keys(kinds) : Object.keys(kinds).reverse();
    for (const kind of order) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < TRANSACTIONS; i += 1) {
        await dataSource.transaction(async (manager) => {
          await outbox(manager);
          await kinds[kind](manager);
        });
      }
      (times[kind] ??= []).push(Number(process.hrtime.bigint() - started) / 1e3 / TRANSACTIONS);
    }
  }
  await dataSource.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
  const base = median(times[Object.keys(kinds)[0]]);
  console.log(`${new Date().toISOString()}, load average ${os.loadavg()[0].toFixed(2)}`);
  console.log('| transaction | µs (median) | all rounds | the entry adds |');
  console.log('|---|---|---|---|');
  for (const [kind, all] of Object.entries(times)) {
    const mid = median(all);
    console.log(
      `| ${kind} | ${mid.toFixed(0)} | ${Math.min(...all).toFixed(0)}-${Math.max(...all).toFixed(0)} | ${(mid - base).toFixed(0)} µs |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
