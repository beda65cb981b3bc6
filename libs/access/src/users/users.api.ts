import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI schema of `UserRepresentation` (spec 2.6). */
export class UserSchema {
  @ApiProperty({ example: 12 })
  id: number;
  @ApiProperty({ format: 'uri' })
  url: string;
  @ApiProperty()
  username: string;
  @ApiProperty({ type: String, nullable: true })
  emailAddress: string | null;
  @ApiProperty({ type: String, nullable: true })
  forename: string | null;
  @ApiProperty({ type: String, nullable: true })
  surname: string | null;
  @ApiProperty({ type: [Number] })
  groupIds: number[];
  @ApiProperty()
  isAdmin: boolean;
  @ApiProperty({ format: 'uri' })
  lightboxUrl: string;
}
