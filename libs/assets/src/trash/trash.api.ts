import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI schema of `TrashedAssetRepresentation`. */
export class TrashedAssetSchema {
  @ApiProperty()
  id: number;
  @ApiProperty({ format: 'uri', description: 'the URL the asset had, and has again once restored' })
  asset: string;
  @ApiProperty({ type: String, nullable: true, description: 'its title when it was deleted' })
  title: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uri', description: 'the user who deleted it' })
  deletedBy: string | null;
  @ApiProperty({ format: 'date-time' })
  deletedAt: string;
  @ApiProperty({ format: 'date-time', description: 'when `purge-trash` deletes it for good' })
  purgeAt: string;
}
