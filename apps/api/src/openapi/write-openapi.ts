// Writes the OpenAPI document without serving it: boots the app on a throwaway SQLite directory, builds
// the document as /docs/openapi.json would, and writes it to the path given (default dist/openapi.json).
// `npm run openapi` runs it; CI lints the result with redocly (`npm run openapi:lint`).
import '../register-paths';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppConfig } from '@dam/core';
import { createApp } from '../create-app';
import { buildOpenApiDocument } from './openapi-document';

async function main(target: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-openapi-'));
  try {
    const config = AppConfig.fromEnv({
      DAM_DATA_DIR: dataDir,
      DAM_JOBS_ENABLED: 'false',
      DAM_DATABASE_CONNECT_RETRIES: '0',
    });
    const app = await createApp(config, ['error']);
    try {
      const document = buildOpenApiDocument(app);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
      const operations = Object.values(document.paths).reduce(
        (count, item) => count + Object.keys(item).filter((key) => key !== 'parameters').length,
        0,
      );
      console.log(`${target}: ${Object.keys(document.paths).length} paths, ${operations} operations`);
    } finally {
      await app.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main(path.resolve(process.argv[2] ?? 'dist/openapi.json')).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
