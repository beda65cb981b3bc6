import { restoreHeapGrowth } from './boot-heap';
import './register-paths';
import { Logger } from '@nestjs/common';
import { AppConfig, ConfigError } from '@dam/core';
import { createApp } from './create-app';

async function main(): Promise<void> {
  const logger = new Logger('Main');
  let config: AppConfig;
  try {
    config = AppConfig.fromEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      logger.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const app = await createApp(config);
  await app.listen(config.port);
  restoreHeapGrowth();
  const storage = config.storageDriver === 'minio' ? `minio bucket ${config.minio?.bucket}` : 'fs';
  const database = config.databaseUrl === undefined ? `SQLite in ${config.dataDir}` : 'MySQL';
  logger.log(
    `DAM API listening on port ${config.port} (${database}, storage ${storage}); REST root /rest, docs /docs`,
  );
}

void main();
