import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ResourceAnswer } from './resource.answer.js';

/** One page of a resource list (HyperFleet's `<Kind>List`): `page` 1-based, `size` items on it, `total` in all pages. */
@ApiSchema({ name: 'ResourceList' })
export class ResourceListAnswer {
  @ApiPropertyOptional() kind?: string;
  @ApiProperty({ type: 'integer' }) page!: number;
  @ApiProperty({ type: 'integer' }) size!: number;
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: [ResourceAnswer] }) items!: ResourceAnswer[];
}
