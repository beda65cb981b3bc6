import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface VerifiedWebhook {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** The status this receiver answered. */
  answered: number;
}

/**
 * A webhook receiver on 127.0.0.1 for e2e specs (the API must allow it: DAM_WEBHOOK_ALLOWED_HOSTS).
 * `answer(n)` gives the status of the n-th request (0-based); 204 by default.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private server: http.Server;
  url = '';

  constructor(private readonly answer: (index: number) => number = () => 204) {}

  static async start(answer?: (index: number) => number): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(answer);
    await receiver.listen();
    return receiver;
  }

  private listen(): Promise<void> {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const status = this.answer(this.received.length);
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers)) headers[name] = String(value);
        this.received.push({ headers, body: Buffer.concat(chunks).toString('utf8'), answered: status });
        response.writeHead(status).end();
      });
    });
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => {
        this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
        resolve();
      }),
    );
  }

  /** The parsed bodies of the requests, after checking each signature with `secret` (throws if one fails). */
  verified(secret: string): VerifiedWebhook[] {
    return this.received.map((_request, index) => this.verifiedAt(index, secret));
  }

  /** The parsed body of the `index`-th request, after checking its signature with `secret`. */
  verifiedAt(index: number, secret: string): VerifiedWebhook {
    const request = this.received[index];
    const payload = new Webhook(secret).verify(request.body, request.headers) as Omit<VerifiedWebhook, 'id'>;
    return { id: request.headers['webhook-id'], ...payload };
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}

/** Waits until `check` returns something other than undefined (polling every 100 ms), or fails after `ms`. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`the condition did not hold within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
