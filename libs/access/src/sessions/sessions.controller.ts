import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { IdPipe } from '@dam/http';
import { ActorUser } from '../actor/actor';
import { Actor } from '../actor/actor.decorator';
import { SessionsService } from './sessions.service';

@ApiTags('users')
@ApiBearerAuth()
@Controller('rest/users')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  /** Ends every session of the user: their tokens are revoked and the URLs they signed stop working. */
  @Post(':id/sessions/revoke')
  @ApiNoContentResponse({ description: "The user's sessions ended" })
  @HttpCode(204)
  async revoke(@Actor() actor: ActorUser, @Param('id', new IdPipe('user')) id: number): Promise<void> {
    await this.sessions.revoke(actor, id);
  }
}
