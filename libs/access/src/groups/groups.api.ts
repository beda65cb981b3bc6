import { NamedResourceSchema } from '@dam/http';
import { ApiProperty } from '@nestjs/swagger';
import { PERMISSIONS } from '../permissions/permission';

class AccessLevelPermissionsSchema {
  @ApiProperty({ format: 'uri' })
  accessLevelUrl: string;
  @ApiProperty({ enum: PERMISSIONS, isArray: true })
  permissions: string[];
}

/** OpenAPI schema of `GroupRepresentation`. */
export class GroupSchema extends NamedResourceSchema {
  @ApiProperty({ type: [AccessLevelPermissionsSchema] })
  accessLevelPermissions: AccessLevelPermissionsSchema[];
}
