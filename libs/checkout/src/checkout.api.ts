import { ApiProperty } from '@nestjs/swagger';

/** `{userId}`: who holds the checkout; a value <= 0 means not checked out. */
export class CheckoutStatusSchema {
  @ApiProperty({ description: 'a user id, as a string; <= 0: not checked out' })
  userId: string;
}

/** One checked-out asset. */
export class CheckoutListItemSchema {
  @ApiProperty()
  assetId: number;
  @ApiProperty()
  userId: string;
  @ApiProperty({ format: 'uri' })
  assetUrl: string;
  @ApiProperty({ format: 'uri' })
  checkoutUrl: string;
}
