import { ApiProperty } from '@nestjs/swagger';
import { PERMISSIONS } from '../permissions/permission';

class AccessLevelPermissionsSchema {
  @ApiProperty({ format: 'uri' })
  accessLevelUrl: string;
  @ApiProperty({ enum: PERMISSIONS, isArray: true })
  permissions: string[];
}

/** OpenAPI schema of `GroupRepresentation`. */
export class GroupSchema {
  @ApiProperty({ format: 'uri' })
  url: string;
  @ApiProperty()
  id: number;
  @ApiProperty()
  name: string;
  @ApiProperty({ type: [AccessLevelPermissionsSchema] })
  accessLevelPermissions: AccessLevelPermissionsSchema[];
}
