import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy in front of the app that records each request's method and path: what a client sent,
 * for specs that count requests (a re-run that sends nothing, a dry run that only reads). Subclasses
 * may hold answers back by overriding `relay`.
 */
export class RecordingProxy {
  readonly requests: string[] = [];
  url = '';
  private server!: http.Server;

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    this.server = http.createServer((request, response) => {
      this.requests.push(`${request.method} ${request.url}`);
      const upstream = http.request(
        `${this.target}${request.url}`,
        // A fresh connection each time: a pooled one the app closed meanwhile would fail the request.
        { method: request.method, headers: request.headers, agent: false },
        (answer) => this.relay(request, answer, response),
      );
      upstream.on('error', () => response.destroy());
      request.pipe(upstream);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Passes the app's answer on to the client. */
  protected relay(
    _request: http.IncomingMessage,
    answer: http.IncomingMessage,
    response: http.ServerResponse,
  ): void {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(response);
  }

  /** The requests recorded so far, and forgets them. */
  take(): string[] {
    return this.requests.splice(0);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
