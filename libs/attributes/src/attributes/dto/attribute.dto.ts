import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Allow, IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';

const TYPE_ID_MESSAGE = 'typeId must be a whole number naming an attribute type';
const DISPLAY_ORDER_MESSAGE = 'displayOrder must be a whole number from 0 to 1000000';

/** `POST /rest/attributes`. The label is checked by the service (blank, length). */
export class CreateAttributeDto {
  @ApiProperty({ type: String, description: 'in the Content-Language of the request' })
  @Allow()
  label?: unknown;

  @ApiProperty({
    description: '1 text, 2 textarea, 3 date, 4 datetime, 5 time, 6 list, 7 keywords, 8 numeric, 9 boolean',
  })
  @IsInt({ message: TYPE_ID_MESSAGE })
  typeId: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean({ message: 'isKeywordSearchable must be true or false' })
  isKeywordSearchable?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsInt({ message: DISPLAY_ORDER_MESSAGE })
  @Min(0, { message: DISPLAY_ORDER_MESSAGE })
  @Max(1_000_000, { message: DISPLAY_ORDER_MESSAGE })
  displayOrder?: number;
}

/** `PUT /rest/attributes/{id}`: the representation sent back; omitted fields stay, read-only ones are ignored. */
export class UpdateAttributeDto extends PartialType(CreateAttributeDto) {}
