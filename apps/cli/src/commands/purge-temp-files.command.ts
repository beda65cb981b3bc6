import { TempChunkedFilesService } from '@dam/temp-chunked-files';
import { CliCommand, parseCommandLine } from './command';

/** What the scheduled job does, on demand: removes temp chunked files untouched for DAM_TEMP_FILE_TTL_HOURS. */
export const purgeTempFilesCommand: CliCommand = {
  name: 'purge-temp-files',
  synopsis: '',
  summary: 'remove temp chunked files untouched for DAM_TEMP_FILE_TTL_HOURS',
  async run(args, { config, context, print }) {
    parseCommandLine(args, {}, { min: 0, max: 0 });
    const app = await context();
    const removed = await app.get(TempChunkedFilesService).purgeStale(new Date());
    print(
      `removed ${removed} temp chunked file${removed === 1 ? '' : 's'} untouched for ${config.tempFileTtlHours} h`,
    );
  },
};
