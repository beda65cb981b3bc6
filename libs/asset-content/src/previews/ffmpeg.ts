import { ChildLimits, DecoderFailed, runDecoder } from './decoder-child';

/** What `ffmpeg -i` tells of a video. */
export interface VideoFacts {
  durationSeconds: number | undefined;
  width: number;
  height: number;
  codec: string;
  hasAudio: boolean;
}

/** The proxy's frame fits inside this box (720p), its sides even as H.264 wants. */
export const PROXY_BOX = { width: 1280, height: 720 };

/** The ffmpeg binary: DAM_FFMPEG_PATH, else the static build shipped in @ffmpeg-installer/ffmpeg. */
export function ffmpegBinary(configured: string | undefined): string {
  if (configured !== undefined) return configured;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

/**
 * Duration, size, codec and audio of the first video stream, from the banner `ffmpeg -i` writes to stderr
 * (the shipped build has no ffprobe). Undefined when ffmpeg finds no video stream (not a video, or
 * corrupt: a truncated MP4 has no `moov`).
 */
export function parseVideoFacts(stderr: string): VideoFacts | undefined {
  const video = /Stream #\d+:\d+[^:]*: Video: ([a-zA-Z0-9_]+)[^\n]*?, (\d{1,5})x(\d{1,5})/.exec(stderr);
  if (video === null) return undefined;
  const duration = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(stderr);
  return {
    durationSeconds:
      duration === null
        ? undefined
        : Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]),
    codec: video[1],
    width: Number(video[2]),
    height: Number(video[3]),
    hasAudio: /Stream #\d+:\d+[^:]*: Audio: /.test(stderr),
  };
}

/** The moment a representative frame is taken: 10% into the video (past a fade-in from black). */
export function frameSecond(facts: VideoFacts): number {
  return facts.durationSeconds === undefined ? 0 : Math.round(facts.durationSeconds * 0.1 * 1000) / 1000;
}

/** ffmpeg runs as a niced child process with a thread limit; see `runDecoder` for the other limits. */
export class Ffmpeg {
  constructor(
    private readonly binary: string,
    private readonly threads: number,
    private readonly limits: ChildLimits,
  ) {}

  async probe(input: string): Promise<VideoFacts | undefined> {
    // Exits 1 ("At least one output file must be specified") after printing what it read.
    const { stderr } = await runDecoder(this.binary, ['-hide_banner', '-nostdin', '-i', input], this.limits);
    return parseVideoFacts(stderr);
  }

  /** One frame at `second`, fitted inside `box`×`box` (never enlarged), as a PNG file. */
  async frame(input: string, second: number, box: number, output: string): Promise<void> {
    await this.run(
      ['-ss', String(second), '-i', input],
      [
        ...['-frames:v', '1', '-an', '-vf'],
        `scale=w='min(${box},iw)':h='min(${box},ih)':force_original_aspect_ratio=decrease`,
      ],
      ['-f', 'image2', '-c:v', 'png', output],
    );
  }

  /** The web proxy: H.264/AAC MP4 inside 1280×720, `moov` first so that players start and seek at once. */
  async proxy(input: string, facts: VideoFacts, output: string): Promise<void> {
    const [inputArgs, filters, outputArgs] = proxyArguments(input, facts, output);
    await this.run(inputArgs, filters, outputArgs);
  }

  /** The whole command line of `proxy` (bench/previews.bench.ts runs it alone to compare). */
  proxyCommand(input: string, facts: VideoFacts, output: string): string[] {
    return this.commandLine(...proxyArguments(input, facts, output));
  }

  /** Input options and input, filters, output options: the thread limit on decoding, filters and encoding. */
  private commandLine(input: string[], filters: string[], output: string[]): string[] {
    const threads = String(this.threads);
    return [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-threads', threads, ...input],
      ...['-filter_threads', threads, ...filters, '-threads', threads, ...output],
    ];
  }

  private async run(input: string[], filters: string[], output: string[]): Promise<void> {
    const { code, stderr } = await runDecoder(
      this.binary,
      this.commandLine(input, filters, output),
      this.limits,
    );
    if (code !== 0) {
      const last = stderr.trim().split('\n').slice(-1)[0] ?? '';
      throw new DecoderFailed(`ffmpeg exited with ${code}: ${last.slice(0, 300)}`);
    }
  }
}

/** The proxy's input, filters and output options. */
function proxyArguments(input: string, facts: VideoFacts, output: string): [string[], string[], string[]] {
  const { width, height } = PROXY_BOX;
  const fit = `scale=w='min(${width},iw)':h='min(${height},ih)':force_original_aspect_ratio=decrease`;
  return [
    ['-i', input],
    [
      ...['-map', '0:v:0', ...(facts.hasAudio ? ['-map', '0:a:0'] : [])],
      ...['-vf', `${fit},scale=trunc(iw/2)*2:trunc(ih/2)*2`],
    ],
    [
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p'],
      ...(facts.hasAudio ? ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'] : []),
      ...['-movflags', '+faststart', '-f', 'mp4', output],
    ],
  ];
}
