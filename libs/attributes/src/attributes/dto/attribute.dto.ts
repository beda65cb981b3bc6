import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { TextField } from '@dam/http';
import { IsBoolean, IsInt, IsOptional } from 'class-validator';
import { IsDisplayOrder } from '../../rules';

const TYPE_ID_MESSAGE = 'typeId must be a whole number naming an attribute type';

/** `POST /rest/attributes`. The label's text is checked by the service (required, blank, length). */
export class CreateAttributeDto {
  @TextField('you must supply a label for the attribute', {
    required: true,
    description: 'in the Content-Language of the request',
  })
  label?: string | null;

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
  @IsDisplayOrder()
  displayOrder?: number;
}

/** `PUT /rest/attributes/{id}`: the representation sent back; omitted fields stay, read-only ones are ignored. */
export class UpdateAttributeDto extends PartialType(CreateAttributeDto) {}
