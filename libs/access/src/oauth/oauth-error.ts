/** An OAuth 2.0 error response (RFC 6749 5.2): JSON `{error, error_description}`, not plain text. */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401,
    readonly code:
      | 'invalid_request'
      | 'invalid_client'
      | 'invalid_grant'
      | 'unauthorized_client'
      | 'unsupported_grant_type'
      | 'unsupported_token_type',
    readonly description: string,
  ) {
    super(description);
  }
}
