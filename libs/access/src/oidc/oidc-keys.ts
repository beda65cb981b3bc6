import { Logger } from '@nestjs/common';
import type { OidcSettings } from '@dam/core';
import { createLocalJWKSet, errors, FlattenedJWSInput, JSONWebKeySet, JWSHeaderParameters } from 'jose';
import { fetchProviderDocument, ProviderUnavailable } from './provider-documents';

/** A token whose key id is unknown refetches the keys at most this often (a rotation shows within it). */
export const UNKNOWN_KID_REFETCH_MS = 10_000;
/** After a failed fetch, requests needing the provider fail at once for this long instead of waiting again. */
export const FAILED_FETCH_PAUSE_MS = 5_000;

type KeyLookup = ReturnType<typeof createLocalJWKSet>;

interface KeptKeys {
  lookup: KeyLookup;
  expiresAt: number;
}

/**
 * The issuer's signing keys: its discovery document names the key set (`jwks_uri`), both fetched on first
 * use and kept as their `Cache-Control` says (within bounds). Kept keys outlive a provider that is down:
 * they are refreshed in the background when they expire, and a failed refresh keeps them. A key id the
 * kept set lacks refetches it at once, at most every UNKNOWN_KID_REFETCH_MS.
 */
export class OidcKeys {
  private readonly logger = new Logger('Oidc');
  private keys: KeptKeys | undefined;
  private jwksUri: { url: string; expiresAt: number } | undefined;
  private reloading: Promise<KeptKeys> | undefined;
  private failedAt = Number.NEGATIVE_INFINITY;
  private unknownKidRefetchAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly settings: Pick<OidcSettings, 'issuer' | 'discoveryUrl' | 'fetchTimeoutMs'>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** jose's key lookup for `jwtVerify` (it is called only for the algorithms the verifier allows). */
  readonly getKey = async (header: JWSHeaderParameters, token: FlattenedJWSInput) => {
    const keys = await this.current();
    try {
      return await keys.lookup(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      if (this.now() - this.unknownKidRefetchAt < UNKNOWN_KID_REFETCH_MS) throw error;
      this.unknownKidRefetchAt = this.now();
      return (await this.reload('a token named an unknown key')).lookup(header, token);
    }
  };

  private async current(): Promise<KeptKeys> {
    const keys = this.keys;
    const pausing = this.now() - this.failedAt < FAILED_FETCH_PAUSE_MS;
    if (keys === undefined) {
      if (pausing)
        throw new ProviderUnavailable("the identity provider's keys could not be fetched just now");
      return this.reload('first use');
    }
    if (keys.expiresAt <= this.now() && !pausing) {
      // Refreshed behind the requests, which go on with the kept keys (also when the refresh fails).
      this.reload('the kept keys expired').catch(() => undefined);
    }
    return keys;
  }

  /** One fetch at a time; callers arriving meanwhile share it. */
  private reload(why: string): Promise<KeptKeys> {
    this.reloading ??= this.fetchKeys()
      .then(
        (keys) => {
          this.keys = keys;
          return keys;
        },
        (error: unknown) => {
          this.failedAt = this.now();
          this.logger.warn(`fetching the identity provider's keys (${why}) failed: ${messageOf(error)}`);
          throw error instanceof ProviderUnavailable ? error : new ProviderUnavailable(messageOf(error));
        },
      )
      .finally(() => {
        this.reloading = undefined;
      });
    return this.reloading;
  }

  private async fetchKeys(): Promise<KeptKeys> {
    const url = await this.keySetUrl();
    const { body, keepMs } = await fetchProviderDocument(url, this.settings.fetchTimeoutMs);
    if (!Array.isArray(body.keys)) throw new ProviderUnavailable(`${url} is not a JSON Web Key Set`);
    // Public keys of asymmetric algorithms only: a shared secret in the set is never a verification key.
    const keys = body.keys.filter(
      (key: unknown) =>
        typeof key === 'object' &&
        key !== null &&
        ['RSA', 'EC', 'OKP'].includes(String((key as { kty?: unknown }).kty)) &&
        !('d' in key),
    ) as JSONWebKeySet['keys'];
    return { lookup: createLocalJWKSet({ keys }), expiresAt: this.now() + keepMs };
  }

  /** `jwks_uri` of the discovery document; a kept one serves on while the document cannot be fetched. */
  private async keySetUrl(): Promise<string> {
    const kept = this.jwksUri;
    if (kept !== undefined && kept.expiresAt > this.now()) return kept.url;
    try {
      const { body, keepMs } = await fetchProviderDocument(
        this.settings.discoveryUrl,
        this.settings.fetchTimeoutMs,
      );
      if (body.issuer !== this.settings.issuer) {
        throw new ProviderUnavailable(
          `the discovery document names the issuer ${String(body.issuer)}, not ${this.settings.issuer}`,
        );
      }
      const url = this.checkedKeySetUrl(body.jwks_uri);
      this.jwksUri = { url, expiresAt: this.now() + keepMs };
      return url;
    } catch (error) {
      if (kept === undefined) throw error;
      this.logger.warn(`the discovery document could not be refreshed: ${messageOf(error)}`);
      return kept.url;
    }
  }

  /** https, or http when the issuer itself is (on loopback, see DAM_OIDC_ISSUER). */
  private checkedKeySetUrl(value: unknown): string {
    const issuerProtocol = new URL(this.settings.issuer).protocol;
    let url: URL | undefined;
    try {
      url = typeof value === 'string' ? new URL(value) : undefined;
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'https:' && url.protocol !== issuerProtocol)) {
      throw new ProviderUnavailable(`the discovery document's jwks_uri is not a usable URL`);
    }
    return url.href;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
