import { IsOptional, IsString } from 'class-validator';

/** Body of `POST .../pause`, `.../unpause`, `.../force-orphan`: a `reason` the domain requires (400 when blank). */
export class OperatorActionDto {
  @IsOptional()
  @IsString()
  reason?: string;
}
