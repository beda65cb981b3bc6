import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Actor, ActorUser } from '@dam/access';
import { xmlMapping, XmlRoot } from '@dam/http';
import type { Response } from 'express';
import { SignUrlRequest } from './dto/sign-url.request';
import { SignUrlService } from './sign-url.service';
import { SignedUrlSchema } from './sign-url.api';

/** XML (DESIGN §3): `<signedUrl><url>…</url></signedUrl>`. */
export const SIGNED_URL_XML = xmlMapping('signedUrl');

@ApiTags('signed URLs')
@ApiBearerAuth()
@Controller('rest/sign-url')
export class SignUrlController {
  constructor(private readonly signing: SignUrlService) {}

  /** 303 to the signed URL (also given in the body, for clients that do not follow redirects). */
  @Post()
  @ApiResponse({
    status: 303,
    description: 'The signed URL, in `Location` and in the body',
    type: SignedUrlSchema,
    headers: { Location: { schema: { type: 'string', format: 'uri' } } },
  })
  @HttpCode(303)
  @XmlRoot(SIGNED_URL_XML)
  async sign(
    @Actor() actor: ActorUser,
    @Body() body: SignUrlRequest,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ url: string }> {
    const url = await this.signing.sign(actor, body.url, body.expirySeconds);
    response.location(url);
    return { url };
  }
}
