import type { OidcSettings } from '@dam/core';
import { errors, jwtVerify, JWTPayload } from 'jose';
import { OidcKeys } from './oidc-keys';
import { ProviderUnavailable } from './provider-documents';

/** Signatures of public-key algorithms only: `none` and the HMAC ones (`HS*`) are never accepted. */
export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/** `exp`, `nbf` and `iat` are checked with this much leeway for clocks that differ. */
export const CLOCK_LEEWAY_SECONDS = 60;

/** Why a JWT was refused, in one line a client may read (never the token itself). */
export class JwtRefused extends Error {}

/** Checks a JWT of DAM_OIDC_ISSUER for DAM_OIDC_AUDIENCE: signature by the issuer's keys, and its times. */
export class OidcTokenVerifier {
  constructor(
    private readonly settings: Pick<OidcSettings, 'issuer' | 'audience'>,
    private readonly keys: OidcKeys,
  ) {}

  async verify(token: string): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, this.keys.getKey, {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        algorithms: ASYMMETRIC_ALGORITHMS,
        clockTolerance: CLOCK_LEEWAY_SECONDS,
        requiredClaims: ['exp'],
      });
      return payload;
    } catch (error) {
      throw new JwtRefused(this.reasonOf(error));
    }
  }

  private reasonOf(error: unknown): string {
    if (error instanceof ProviderUnavailable) return "the identity provider's signing keys are unavailable";
    if (error instanceof errors.JWTExpired) return 'the token has expired';
    if (error instanceof errors.JWTClaimValidationFailed) return this.claimReason(error.claim);
    if (error instanceof errors.JOSEAlgNotAllowed)
      return 'the token is not signed with an asymmetric algorithm (none and HS* are refused)';
    if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature is invalid";
    if (error instanceof errors.JWKSNoMatchingKey)
      return 'the token is signed with a key the identity provider does not publish';
    if (error instanceof errors.JWKSMultipleMatchingKeys)
      return "the token does not name which of the identity provider's keys signed it (kid)";
    return 'the token is not a valid signed JWT';
  }

  private claimReason(claim: string): string {
    switch (claim) {
      case 'iss':
        return `the token was not issued by ${this.settings.issuer}`;
      case 'aud':
        return `the token is not meant for this service (audience ${this.settings.audience})`;
      case 'nbf':
        return 'the token is not valid yet';
      case 'iat':
        return 'the token was issued in the future';
      case 'exp':
        return 'the token has no valid expiry';
      default:
        return `the token's ${claim} claim is invalid`;
    }
  }
}
