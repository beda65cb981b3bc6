/**
 * The API under benchmark: a child process running the build (dist/, `npm run build` first) on the
 * matrix of DAM_TEST_MATRIX (sqlite + fs, or mysql + minio against s3rver or the MinIO of MINIO_ENDPOINT),
 * with a fresh database and data folder, and a client_credentials token of the application user.
 */
import { randomBytes } from 'node:crypto';
import { createTestDatabase, MATRIX, Matrix } from '../test/helpers/databases';
import { startObjectStore } from '../test/helpers/object-store';
import { ProgramEntry, ServiceProcess } from '../test/helpers/service-process';

export interface BenchService {
  service: ServiceProcess;
  token: string;
  /** The application client's secret (client id `bench`). */
  clientSecret: string;
  matrix: Matrix;
  /** The service's MySQL database (mysql matrix only), for baselines that read the same server. */
  databaseUrl: string | undefined;
  /** What the service runs on, for the reports. */
  describe: string;
  /** Kills the service and drops the database, data folder and object store. */
  stop(): Promise<void>;
}

/**
 * `extraEnv`: settings of one benchmark (e.g. DAM_TRUST_PROXY), over the defaults. `program`: how to run
 * it instead of `node dist/apps/api/src/main.js` (another build's entry point, node flags, a preload).
 * `keepOutput`: keep its output lines (ServiceProcess.output). `matrix`: another than DAM_TEST_MATRIX's.
 */
export async function startBenchService(
  extraEnv: Record<string, string> = {},
  program?: ProgramEntry,
  keepOutput = false,
  matrix: Matrix = MATRIX,
): Promise<BenchService> {
  const database = await createTestDatabase(matrix);
  const store = matrix === 'mysql' ? await startObjectStore() : undefined;
  const clientId = 'bench';
  const clientSecret = randomBytes(18).toString('base64url');
  const env: Record<string, string> = {
    DAM_DATA_DIR: database.dataDir,
    DAM_CLIENT_ID: clientId,
    DAM_CLIENT_SECRET: clientSecret,
    DAM_LOG_REQUESTS: 'false',
    DAM_JOBS_ENABLED: 'false',
    ...store?.env,
    ...extraEnv,
  };
  if (database.databaseUrl !== undefined) env.DATABASE_URL = database.databaseUrl;
  const service = new ServiceProcess(env, true, program);
  service.keepOutput = keepOutput;
  const stop = async () => {
    await service.kill();
    await store?.stop();
    await database.drop();
  };
  try {
    await service.start();
    const token = await service.token(clientId, clientSecret);
    return {
      service,
      token,
      clientSecret,
      matrix,
      databaseUrl: database.databaseUrl,
      describe: describeMatrix(matrix),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function describeMatrix(matrix: Matrix): string {
  if (matrix === 'sqlite') return 'SQLite (embedded, WAL) + fs storage';
  const store = process.env.MINIO_ENDPOINT
    ? `MinIO at ${process.env.MINIO_ENDPOINT}`
    : 's3rver in the benchmark process';
  return `MySQL/MariaDB (DAM_TEST_MYSQL_URL) + minio storage on ${store}`;
}
