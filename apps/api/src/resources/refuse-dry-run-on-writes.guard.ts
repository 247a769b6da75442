/**
 * Applies `refuseDryRunOnWrite` to every write of a controller except DELETE (whose handlers answer a
 * `dryRun=All` with a preview): a POST, PATCH or PUT with a dry-run flag is a 400, never carried out.
 */
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { refuseDryRunOnWrite } from './dry-run.js';

const READS_AND_DELETE = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);

@Injectable()
export class RefuseDryRunOnWrites implements CanActivate {
  /** @throws ValidationFailed (400) for a write other than DELETE whose query names a dry run. */
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (!READS_AND_DELETE.has(request.method)) refuseDryRunOnWrite(request.query);
    return true;
  }
}
