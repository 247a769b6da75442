import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

const POLICIES = ['Delete', 'Orphan'];
const PROPAGATIONS = ['Foreground', 'Background'];

class PreviewTargetAnswer {
  @ApiProperty() id!: string;
  @ApiProperty() kind!: string;
  @ApiPropertyOptional() name?: string;
  @ApiPropertyOptional() href?: string;
}

/** One resource the DELETE would mark (deletion-preview-answer.ts). */
class PreviewedDeletionAnswer {
  @ApiProperty() id!: string;
  @ApiProperty() kind!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer', minimum: 2, description: 'the generation the mark would set' }) generation!: number;
  @ApiPropertyOptional({ description: 'the resource whose DELETE cascades here' }) cascaded_from?: string;
  @ApiProperty({ enum: POLICIES }) deletion_policy!: string;
  @ApiProperty() deletion_policy_source!: string;
  @ApiProperty({ enum: PROPAGATIONS }) deletion_propagation!: string;
  @ApiProperty({ type: [String] }) required_adapters!: string[];
  @ApiPropertyOptional({
    type: [String],
    description:
      'what the plan implies beyond the record, e.g. an Orphan resource under a Delete ancestor: a Namespace that ancestor deletes is kept while it holds released objects',
  })
  notes?: string[];
}

/** A DELETE decided on current state and not carried out (`?dryRun=All`, seed 000). */
@ApiSchema({ name: 'DeletionPreview' })
export class DeletionPreviewAnswer {
  @ApiProperty({ enum: ['DeletionPreview'] }) kind!: string;
  @ApiProperty({ type: 'boolean', enum: [true] }) dry_run!: true;
  @ApiProperty({ type: PreviewTargetAnswer }) target!: PreviewTargetAnswer;
  @ApiProperty({ enum: ['WouldDelete', 'AlreadyDeleting'], description: 'AlreadyDeleting: a DELETE would record nothing' })
  outcome!: string;
  @ApiPropertyOptional({ enum: PROPAGATIONS, description: 'as passed' }) propagationPolicy?: string;
  @ApiProperty() delete_for_move!: boolean;
  @ApiProperty({
    type: [PreviewedDeletionAnswer],
    description: 'every resource the DELETE would mark, in hard-delete order (children before their parent)',
  })
  resources!: PreviewedDeletionAnswer[];
}
