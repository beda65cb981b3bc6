import { CliCommand, parseCommandLine } from './command';

/** The usage text: every command with its arguments and a one-line summary. */
export function usage(commands: CliCommand[]): string {
  const lines = commands.map(
    (command) => [`${command.name} ${command.synopsis}`.trim(), command.summary] as const,
  );
  const width = Math.max(...lines.map(([synopsis]) => synopsis.length));
  return [
    'usage: npm run cli -- <command> [options]',
    '',
    'commands:',
    ...lines.map(([synopsis, summary]) => `  ${synopsis.padEnd(width)}  ${summary}`),
    '',
    'Configuration comes from the same environment variables as the API (DATABASE_URL, DAM_DATA_DIR, ...).',
  ].join('\n');
}

export function helpCommand(commands: () => CliCommand[]): CliCommand {
  return {
    name: 'help',
    synopsis: '',
    summary: 'show this text',
    async run(args, { print }) {
      parseCommandLine(args, {}, { min: 0, max: 0 });
      print(usage(commands()));
    },
  };
}
