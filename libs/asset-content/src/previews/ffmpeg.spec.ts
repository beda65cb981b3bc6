import { frameSecond, parseVideoFacts } from './ffmpeg';

const BANNER = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'v.mp4':
  Duration: 00:01:03.02, start: 0.000000, bitrate: 303 kb/s
    Stream #0:0(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 1920x1080 [SAR 1:1 DAR 16:9], 221 kb/s, 25 fps (default)
    Stream #0:1(und): Audio: aac (LC) (mp4a / 0x6134706D), 44100 Hz, mono, fltp, 75 kb/s (default)
At least one output file must be specified`;

describe('the facts of a video from ffmpeg -i', () => {
  it.each([
    [
      'a video with sound',
      BANNER,
      { durationSeconds: 63.02, codec: 'h264', width: 1920, height: 1080, hasAudio: true },
    ],
    [
      'a silent video of unknown duration',
      'Duration: N/A\n    Stream #0:0: Video: prores (HQ) (apch / 0x68637061), yuv422p10le, 3840x2160, 25 fps',
      { durationSeconds: undefined, codec: 'prores', width: 3840, height: 2160, hasAudio: false },
    ],
    [
      'a truncated MP4',
      '[mov,mp4 @ 0x1] moov atom not found\nv.mp4: Invalid data found when processing input',
      undefined,
    ],
    ['audio only', 'Duration: 00:00:03.00\n    Stream #0:0: Audio: mp3, 44100 Hz, stereo', undefined],
  ])('reads %s', (_name, stderr, facts) => {
    expect(parseVideoFacts(stderr)).toEqual(facts);
  });

  it.each([
    [63.02, 6.302],
    [undefined, 0],
    [0, 0],
  ])('takes the frame of a %s s video at %s s (10%, past a fade from black)', (durationSeconds, second) => {
    const facts = { durationSeconds, codec: 'h264', width: 2, height: 2, hasAudio: false };
    expect(frameSecond(facts)).toBe(second);
  });
});
