import { Body, Controller, Headers, HttpCode, Ip, Post, Res, UseFilters } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OAuthParameters, OAuthService, TokenResponse } from '@dam/access';
import { JsonOnly, Public } from '@dam/http';
import type { Response } from 'express';
import { ApiOAuthEndpoint, ApiTokenResponse, RevokeRequestSchema, TokenRequestSchema } from './oauth.api';
import { OAuthErrorFilter } from './oauth-error.filter';

/** RFC 6749 token endpoint and RFC 7009 revocation; form-encoded or JSON bodies. */
@ApiTags('oauth')
@Public()
@UseFilters(OAuthErrorFilter)
@JsonOnly()
@Controller('oauth')
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  @Post('token')
  @ApiOAuthEndpoint(TokenRequestSchema)
  @ApiTokenResponse()
  @HttpCode(200)
  async token(
    @Body() body: OAuthParameters | undefined,
    @Headers('authorization') authorization: string | undefined,
    @Ip() address: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TokenResponse> {
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Pragma', 'no-cache');
    return this.oauth.token(body ?? {}, authorization, address);
  }

  @Post('revoke')
  @ApiOAuthEndpoint(RevokeRequestSchema)
  @ApiOkResponse({ description: 'Revoked (or unknown): an empty body' })
  @HttpCode(200)
  async revoke(
    @Body() body: OAuthParameters | undefined,
    @Headers('authorization') authorization: string | undefined,
    @Ip() address: string | undefined,
  ): Promise<void> {
    await this.oauth.revoke(body ?? {}, authorization, address);
  }
}
