import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** A reference to another resource (`owner_references`, `references.<ref_type>[]`). */
@ApiSchema({ name: 'ObjectReference' })
export class ObjectReferenceAnswer {
  @ApiProperty() id!: string;
  @ApiProperty() kind!: string;
  @ApiPropertyOptional() href?: string;
}
