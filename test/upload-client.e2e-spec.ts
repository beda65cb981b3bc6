import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { bearerRequests } from './helpers/bearer-requests';
import { contentRequests, fetchSigned, sha256 } from './helpers/content-fixtures';
import { Grants } from './helpers/grant-fixtures';
import { RecordingProxy } from './helpers/recording-proxy';
import { TestApp, TestUser } from './helpers/test-app';
import { FROM_SOURCES } from './helpers/from-sources';

jest.setTimeout(120_000);

const KiB = 1024;

/**
 * A proxy in front of the app that records the chunk PUTs passing through and, from `holdFrom` on,
 * forwards a chunk but never answers it: a client whose network died after the server stored the chunk.
 */
class ChunkProxy extends RecordingProxy {
  holdFrom = Number.POSITIVE_INFINITY;
  private readonly held: http.ServerResponse[] = [];
  private waiters: Array<{ count: number; resolve: () => void }> = [];

  /** The indexes of the chunk PUTs sent so far. */
  get sent(): number[] {
    return this.requests.flatMap((request) => {
      const index = chunkIndex(request);
      return index === undefined ? [] : [index];
    });
  }

  protected override relay(
    request: http.IncomingMessage,
    answer: http.IncomingMessage,
    response: http.ServerResponse,
  ): void {
    const index = chunkIndex(`${request.method} ${request.url}`);
    if (index === undefined || index < this.holdFrom) return super.relay(request, answer, response);
    answer.resume();
    this.held.push(response);
    this.waiters = this.waiters.filter((waiter) => {
      if (this.held.length < waiter.count) return true;
      waiter.resolve();
      return false;
    });
  }

  /** Resolves once `count` chunk answers are held back. */
  heldCount(count: number): Promise<void> {
    if (this.held.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  override async stop(): Promise<void> {
    for (const response of this.held) response.destroy();
    await super.stop();
  }
}

function chunkIndex(request: string): number | undefined {
  const chunk = /^PUT \/rest\/temp-chunked-files\/[0-9a-f-]{36}\/(\d+)$/.exec(request);
  return chunk === null ? undefined : Number(chunk[1]);
}

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** `dam upload` as its own process, from its sources (nothing is built for the tests). */
function runClient(args: string[], env: Record<string, string>): Run {
  const child = spawn(process.execPath, [...FROM_SOURCES, 'apps/cli/src/main.ts', 'upload', ...args], {
    cwd: path.resolve(__dirname, '..'),
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (data: Buffer) => (stdout += data.toString()));
  child.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
  const done = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

describe('dam upload (the resumable upload client)', () => {
  let t: TestApp;
  let proxy: ChunkProxy;
  let editor: TestUser;
  let viewer: TestUser;
  let level: number;
  let home: string;
  const api = bearerRequests(() => t);
  const { newAsset } = contentRequests(() => t);

  beforeAll(async () => {
    t = await TestApp.start();
    const grants = new Grants(t);
    level = await grants.topLevel('Default');
    [editor, viewer] = [await t.createUser(), await t.createUser()];
    await grants.give(editor.id, [level], ['view', 'download', 'edit']);
    await grants.give(viewer.id, [level], ['view', 'download']);
    proxy = new ChunkProxy(t.baseUrl);
    await proxy.start();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'dam-upload-home-'));
  });
  afterAll(async () => {
    await proxy?.stop();
    await t?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  const clientEnv = (token: string) => ({ DAM_URL: proxy.url, DAM_TOKEN: token, HOME: home });

  function file(name: string, bytes: Buffer): string {
    const where = path.join(home, name);
    fs.writeFileSync(where, bytes);
    return where;
  }

  it('killed mid-upload and run again, it resumes without re-sending finished chunks', async () => {
    const asset = await newAsset(level);
    const id = asset.split('/').pop() ?? '';
    const data = randomBytes(40 * 64 * KiB + 12_345);
    const source = file('footage.bin', data);
    const args = [source, '--asset', id, '--parallel', '3', '--chunk-size', '64K'];

    // First run: chunks from 10 on are stored but never answered; the client is killed meanwhile.
    proxy.holdFrom = 10;
    const first = runClient(args, clientEnv(editor.token));
    await proxy.heldCount(3);
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    const firstSent = [...proxy.sent];
    expect(firstSent.slice().sort((a, b) => a - b)).toEqual(Array.from({ length: 13 }, (_, i) => i));
    await api.get(`${asset}/content`, editor.token).redirects(0).expect(404);

    // Second run: it asks which chunks arrived (0 to 12) and sends only the others.
    proxy.holdFrom = Number.POSITIVE_INFINITY;
    proxy.take();
    const second = await runClient(args, clientEnv(editor.token)).done;
    expect(second.stderr).toContain('resuming');
    expect(second.code).toBe(0);
    expect(second.stdout.trim()).toBe(`${proxy.url}/rest/assets/${id}`);
    expect(proxy.sent.slice().sort((a, b) => a - b)).toEqual(Array.from({ length: 28 }, (_, i) => i + 13));

    const redirect = await api.get(`${asset}/content`, editor.token).redirects(0).expect(303);
    const stored = await fetchSigned(redirect.headers.location as string);
    expect(stored.sha256).toBe(sha256(data));
    expect(stored.headers.get('content-disposition')).toContain('footage.bin');
    // The state file is gone with the upload: a third run starts afresh.
    expect(fs.readdirSync(path.join(home, '.dam', 'uploads'))).toEqual([]);
  });

  it('exits 1 with the status and the reason when the server refuses, 2 for a wrong command line', async () => {
    const asset = await newAsset(level);
    const id = asset.split('/').pop() ?? '';
    const source = file('refused.bin', randomBytes(100 * KiB));
    const refused = await runClient([source, '--asset', id, '--chunk-size', '64K'], clientEnv(viewer.token))
      .done;
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      `upload failed: PUT ${proxy.url}/rest/assets/${id}/content answered 403: you need edit permission on every access level of the asset`,
    );
    const badToken = await runClient([source, '--asset', id], clientEnv('not-a-token')).done;
    expect(badToken.code).toBe(1);
    expect(badToken.stderr).toMatch(/upload failed: POST .*\/rest\/temp-chunked-files answered 401/);
    const usage = await runClient([source], clientEnv(editor.token)).done;
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--asset must name an asset id');
    const noUrl = await runClient([source, '--asset', id], { DAM_TOKEN: editor.token, HOME: home }).done;
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('DAM_URL');
  });

  it('logs in with a client id and secret when there is no DAM_TOKEN', async () => {
    const asset = await newAsset(level);
    const id = asset.split('/').pop() ?? '';
    const data = randomBytes(150 * KiB);
    const source = file('credentials.bin', data);
    const run = await runClient([source, '--asset', id, '--chunk-size', '64K'], {
      DAM_URL: t.baseUrl,
      DAM_CLIENT_ID: t.clientId,
      DAM_CLIENT_SECRET: t.clientSecret,
      HOME: home,
    }).done;
    expect(run.stderr).toContain('chunk 2 sent');
    expect(run.code).toBe(0);
    const redirect = await api.get(`${asset}/content`, editor.token).redirects(0).expect(303);
    expect((await fetchSigned(redirect.headers.location as string)).sha256).toBe(sha256(data));
  });
});
