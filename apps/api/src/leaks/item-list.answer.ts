import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** A list whose items are free JSON objects (leaks, dead-lettered jobs), with their count. */
@ApiSchema({ name: 'ItemList' })
export class ItemListAnswer {
  @ApiProperty({ type: 'integer', minimum: 0 }) total!: number;
  @ApiProperty({ type: 'array', items: { type: 'object' } }) items!: object[];
}
