import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** One registered kind (`KindDescriptor`, config/entities.yaml). */
class KindAnswer {
  @ApiProperty() kind!: string;
  @ApiProperty() plural!: string;
  @ApiPropertyOptional() parent_kind?: string;
}

/** `GET /api/decom/v1/kinds`. */
@ApiSchema({ name: 'KindList' })
export class KindListAnswer {
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: [KindAnswer] }) items!: KindAnswer[];
}
