import { Injectable } from '@nestjs/common';
import { UrlService, xmlMapping } from '@dam/http';
import { User } from './user';

/** Spec 2.6. Secrets (the password hash) never leave. */
export interface UserRepresentation {
  id: number;
  url: string;
  username: string;
  emailAddress: string | null;
  forename: string | null;
  surname: string | null;
  groupIds: number[];
  isAdmin: boolean;
  lightboxUrl: string;
}

/** XML (DESIGN §3): `<user>`, `<groupIds><groupId>`. */
export const USER_XML = xmlMapping('user', { groupIds: 'groupId' });

@Injectable()
export class UserMapper {
  constructor(private readonly urls: UrlService) {}

  url(id: number): string {
    return this.urls.rest('users', id);
  }

  toRepresentation(user: User): UserRepresentation {
    return {
      id: user.id,
      url: this.url(user.id),
      username: user.username,
      emailAddress: user.emailAddress,
      forename: user.forename,
      surname: user.surname,
      groupIds: user.groupIds,
      isAdmin: user.isAdmin || user.isApplication,
      lightboxUrl: this.urls.rest('users', user.id, 'lightboxes'),
    };
  }
}
