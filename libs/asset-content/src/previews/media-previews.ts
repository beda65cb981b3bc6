import { AppConfig } from '@dam/core';
import * as path from 'node:path';
import { ChildLimits, DecoderFailed } from './decoder-child';
import { Ffmpeg, ffmpegBinary, frameSecond, VideoFacts } from './ffmpeg';
import { PdfRenderers } from './pdf-first-page';

/**
 * The decoders of videos and PDFs, each a child process bounded by DAM_RENDITION_TIMEOUT_SECONDS and
 * DAM_RENDITION_MAX_MEMORY_MB: a video's representative frame and web proxy (ffmpeg), a PDF's first page
 * (PDF.js, in renderers kept between files). Each writes its result into the `work` folder it is given; the image renditions are made
 * from the frame or the page as from an uploaded image.
 */
export class MediaPreviews {
  private readonly ffmpeg: Ffmpeg;
  private readonly limits: ChildLimits;
  private readonly pdfs: PdfRenderers;

  constructor(private readonly config: AppConfig) {
    this.limits = decoderLimits(config);
    this.pdfs = new PdfRenderers(this.limits);
    this.ffmpeg = ffmpegOf(config);
  }

  /** The video's facts and a PNG of its frame at 10% of its duration, fitted inside `box`. */
  async videoFrame(input: string, work: string, box: number): Promise<{ facts: VideoFacts; frame: string }> {
    const facts = await this.ffmpeg.probe(input);
    if (facts === undefined) throw new DecoderFailed('ffmpeg finds no readable video stream in it');
    const frame = path.join(work, 'frame.png');
    await this.ffmpeg.frame(input, frameSecond(facts), box, frame);
    return { facts, frame };
  }

  /** The web proxy (MP4, H.264/AAC, within 720p) and its size. */
  async videoProxy(
    input: string,
    facts: VideoFacts,
    work: string,
  ): Promise<{ file: string; width: number; height: number }> {
    const file = path.join(work, 'proxy.mp4');
    await this.ffmpeg.proxy(input, facts, file);
    const made = await this.ffmpeg.probe(file);
    if (made === undefined) throw new DecoderFailed('ffmpeg made no readable proxy');
    return { file, width: made.width, height: made.height };
  }

  /** The PDF's first page fitted inside `box`, as a file of raw RGBA pixels. */
  async pdfPage(input: string, work: string, box: number): Promise<RawImage> {
    const file = path.join(work, 'page.rgba');
    const { width, height } = await this.pdfs.render(input, file, {
      box,
      maxPages: this.config.previews.maxPdfPages,
      maxPixels: this.config.renditionMaxInputPixels,
    });
    return { file, width, height };
  }

  /** Ends the PDF renderers kept between files. */
  close(): void {
    this.pdfs.close();
  }
}

/** The limits of every decoder child: DAM_RENDITION_TIMEOUT_SECONDS and DAM_RENDITION_MAX_MEMORY_MB. */
function decoderLimits(config: AppConfig): ChildLimits {
  const { timeoutSeconds, maxMemoryMb } = config.previews;
  return { timeoutMs: timeoutSeconds * 1000, maxMemoryBytes: maxMemoryMb * 2 ** 20 };
}

/** ffmpeg as the renditions run it: DAM_FFMPEG_PATH, DAM_RENDITION_THREADS and the decoder limits. */
export function ffmpegOf(config: AppConfig): Ffmpeg {
  return new Ffmpeg(ffmpegBinary(config.previews.ffmpegPath), config.previews.threads, decoderLimits(config));
}

/** An image as raw RGBA pixels (4 channels) in a file. */
export interface RawImage {
  file: string;
  width: number;
  height: number;
}
