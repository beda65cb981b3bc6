/**
 * Reads a secret for the CLI: with `fromStdin`, the whole of standard input without its trailing newline
 * (`printf %s "$PW" | dam users:reset-password alice --password-stdin`); otherwise, when stdin is a
 * terminal, a line typed at `prompt` (written to stderr) without echo. Undefined when stdin is neither
 * asked for nor a terminal, or when nothing was given.
 */
export async function readSecret(
  stdin: (NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => void }) | undefined,
  fromStdin: boolean,
  prompt: string,
  stderr: (line: string) => void,
): Promise<string | undefined> {
  if (stdin === undefined) return undefined;
  if (fromStdin) {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    const text = Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
    return text === '' ? undefined : text;
  }
  if (stdin.isTTY !== true || stdin.setRawMode === undefined) return undefined;
  return promptHidden(stdin as NodeJS.ReadStream, prompt, stderr);
}

/** One line from a terminal in raw mode, echoing nothing; Ctrl-C aborts. */
function promptHidden(
  stdin: NodeJS.ReadStream,
  prompt: string,
  stderr: (line: string) => void,
): Promise<string | undefined> {
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (value: string | undefined, error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.removeListener('data', onData);
      stderr('');
      if (error !== undefined) reject(error);
      else resolve(value === '' ? undefined : value);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return done(typed);
        if (char === '\u0003') return done(undefined, new Error('cancelled'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.on('data', onData);
  });
}
