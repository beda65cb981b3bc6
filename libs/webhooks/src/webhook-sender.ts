import { Injectable } from '@nestjs/common';
import { AppConfig } from '@dam/core';
import * as http from 'node:http';
import * as https from 'node:https';
import { Webhook as Signer } from 'standardwebhooks';
import { REFUSED_TARGET, WebhookTargets } from './target-guard';

/**
 * What one attempt came to: a 2xx is a success; anything else (or no answer) a failure. `error` is what
 * admins read in `lastError`: "refused: ..." when the guard would not connect, "failed: ..." otherwise,
 * never the network's own reason (a refused port, a reset, a timeout, a DNS failure), which would map the
 * networks the service can reach. `detail` keeps that reason for the operator's log.
 */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  detail?: string;
}

/** What admins read of an attempt that got no HTTP answer, whatever the network said. */
const NO_ANSWER = 'failed: no answer (the connection failed or timed out)';

/** At most this much of a receiver's answer is read (and dropped). */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * One delivery attempt (Standard Webhooks): POST of the JSON body with `webhook-id` (the event's id,
 * the same for every attempt), `webhook-timestamp` (this attempt, in seconds) and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the webhook's secret). Redirects are not
 * followed (a 3xx is a failure); the attempt fails after DAM_WEBHOOK_TIMEOUT_MS; the address connected
 * to is checked by the SSRF guard after DNS resolution.
 */
@Injectable()
export class WebhookSender {
  private readonly timeoutMs: number;

  constructor(
    private readonly targets: WebhookTargets,
    config: AppConfig,
  ) {
    this.timeoutMs = config.webhookTimeoutMs;
  }

  async send(
    target: string,
    secret: string,
    eventId: string,
    body: string,
    now = new Date(),
  ): Promise<AttemptOutcome> {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return { ok: false, statusCode: null, error: 'failed: the target is not a URL' };
    }
    // A name is checked after its resolution, by the lookup given to the request (no DNS rebinding).
    const refusal = this.targets.literalRefusal(url);
    if (refusal !== undefined) return { ok: false, statusCode: null, error: `refused: ${refusal}` };
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'dam-webhooks/1',
      'webhook-id': eventId,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Signer(secret).sign(eventId, now, body),
      'content-length': String(Buffer.byteLength(body)),
    };
    return new Promise<AttemptOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: AttemptOutcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const client = url.protocol === 'https:' ? https : http;
      const request = client.request(
        url,
        { method: 'POST', headers, agent: false, lookup: this.targets.lookupFor(url) as never },
        (response) => {
          const statusCode = response.statusCode ?? null;
          let read = 0;
          response.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_ANSWER_BYTES) response.destroy();
          });
          const done = (): void => {
            if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
              finish({ ok: true, statusCode, error: null });
            } else {
              const redirect = statusCode !== null && statusCode >= 300 && statusCode < 400;
              finish({
                ok: false,
                statusCode,
                error: redirect
                  ? `failed: answered ${statusCode} (redirects are not followed)`
                  : `failed: answered ${statusCode}`,
              });
            }
          };
          response.on('end', done);
          response.on('close', done);
          response.on('error', done);
        },
      );
      const timer = setTimeout(() => {
        request.destroy(new Error(`no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) =>
        finish(
          error.code === REFUSED_TARGET
            ? { ok: false, statusCode: null, error: `refused: ${error.message}` }
            : { ok: false, statusCode: null, error: NO_ANSWER, detail: error.message },
        ),
      );
      request.end(body);
    });
  }
}
