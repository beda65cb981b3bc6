// `npm run openapi:client`: writes test/generated/dam-api.d.ts from the document `npm run openapi` wrote.
// Arguments: the document (default dist/openapi.json), and where to write (default the committed file).
// A separate process, because openapi-typescript loads ES modules that Jest's runtime cannot require.
import * as fs from 'node:fs';
import { DAM_API_TYPES, generateDamApiTypes } from './dam-api-types';

async function main(documentPath: string, target: string): Promise<void> {
  const document = JSON.parse(fs.readFileSync(documentPath, 'utf8')) as object;
  fs.writeFileSync(target, await generateDamApiTypes(document));
  console.log(`${documentPath} → ${target}`);
}

main(process.argv[2] ?? 'dist/openapi.json', process.argv[3] ?? DAM_API_TYPES).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
