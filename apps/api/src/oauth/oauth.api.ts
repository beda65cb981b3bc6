import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  getSchemaPath,
} from '@nestjs/swagger';

/** The parameters of `POST /oauth/token` (RFC 6749 4.3, 4.4, 6); the client may instead use HTTP Basic. */
export class TokenRequestSchema {
  @ApiProperty({ enum: ['password', 'client_credentials', 'refresh_token'] })
  grant_type: string;
  @ApiPropertyOptional({ description: 'password grant' })
  username?: string;
  @ApiPropertyOptional({ description: 'password grant', format: 'password' })
  password?: string;
  @ApiPropertyOptional({ description: 'refresh_token grant' })
  refresh_token?: string;
  @ApiPropertyOptional({ description: 'unless sent with HTTP Basic' })
  client_id?: string;
  @ApiPropertyOptional({ description: 'unless sent with HTTP Basic', format: 'password' })
  client_secret?: string;
}

/** The parameters of `POST /oauth/revoke` (RFC 7009). */
export class RevokeRequestSchema {
  @ApiProperty({ description: 'an access or refresh token' })
  token: string;
  @ApiPropertyOptional({ enum: ['access_token', 'refresh_token'] })
  token_type_hint?: string;
  @ApiPropertyOptional({ description: 'unless sent with HTTP Basic' })
  client_id?: string;
  @ApiPropertyOptional({ description: 'unless sent with HTTP Basic', format: 'password' })
  client_secret?: string;
}

/** RFC 6749 5.1. */
export class TokenResponseSchema {
  @ApiProperty({ description: 'opaque' })
  access_token: string;
  @ApiProperty({ enum: ['Bearer'] })
  token_type: string;
  @ApiProperty({ description: 'seconds' })
  expires_in: number;
  @ApiPropertyOptional({ description: 'password and refresh_token grants only; opaque' })
  refresh_token?: string;
}

/** RFC 6749 5.2. */
export class OAuthErrorSchema {
  @ApiProperty({
    enum: ['invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type'],
  })
  error: string;
  @ApiPropertyOptional()
  error_description?: string;
}

const FORM_TYPES = ['application/x-www-form-urlencoded', 'application/json'];

/** A form-encoded (or JSON) body of `model`, and RFC 6749's JSON errors. */
export function ApiOAuthEndpoint(model: new () => object): MethodDecorator {
  const schema = { $ref: getSchemaPath(model) };
  return applyDecorators(
    ApiExtraModels(model, OAuthErrorSchema),
    ApiConsumes(...FORM_TYPES),
    ApiBody({ required: true, schema }),
    ...[400, 401].map((status) =>
      ApiResponse({
        status,
        description:
          status === 400 ? 'invalid_request, invalid_grant, unsupported_grant_type' : 'invalid_client',
        content: { 'application/json': { schema: { $ref: getSchemaPath(OAuthErrorSchema) } } },
      }),
    ),
  );
}

export const ApiTokenResponse = (): MethodDecorator =>
  ApiOkResponse({ description: 'An access token (`Cache-Control: no-store`)', type: TokenResponseSchema });
