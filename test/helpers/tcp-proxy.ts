import * as net from 'node:net';
import { Transform } from 'node:stream';

/**
 * A TCP proxy on 127.0.0.1 in front of one server (MariaDB in the fault tests), so a test can make that
 * server vanish for the process under test without touching the real one, which other tests share.
 * `stop()` is "the server died": the listener closes (new connections are refused) and every open
 * connection is cut. `start()` again is "the server is back", on the same port. `freeze()` is "the
 * server hangs": connections stay open but nothing passes either way until `thaw()` or `stop()`.
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private frozen = false;
  private readonly sockets = new Set<net.Socket>();
  /** Fixed by the first start, kept across restarts. */
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** A proxy already listening in front of `host:port`. */
  static async listen(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetHost, targetPort);
    await proxy.start();
    return proxy;
  }

  get listening(): boolean {
    return this.server !== undefined;
  }

  /** Connections open through the proxy right now (client and server sides each count once). */
  get openSockets(): number {
    return this.sockets.size;
  }

  async start(): Promise<void> {
    if (this.server !== undefined) return;
    const server = net.createServer((client) => this.relay(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** Refuses new connections and cuts the open ones; resolves once the listener is closed. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  freeze(): void {
    this.frozen = true;
  }

  thaw(): void {
    this.frozen = false;
  }

  /** `url` with its host and port replaced by the proxy's. */
  rewrite(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(this.port);
    return proxied.toString();
  }

  private relay(client: net.Socket): void {
    const upstream = net.connect(this.targetPort, this.targetHost);
    for (const [socket, peer] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(socket);
      socket.on('error', () => peer.destroy());
      socket.on('close', () => {
        this.sockets.delete(socket);
        peer.destroy();
      });
    }
    client.pipe(this.gate()).pipe(upstream);
    upstream.pipe(this.gate()).pipe(client);
  }

  /** Passes data on, or drops it while frozen (a hung peer answers nothing, and reads nothing either). */
  private gate(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, done) => done(null, this.frozen ? undefined : chunk),
    });
  }
}
