import { ActorUser } from '../actor/actor';
import { AccessGrants } from './access-grants';

/** An actor with their grants: what every visibility question needs. */
export interface Viewer {
  actor: ActorUser;
  grants: AccessGrants;
}
