/**
 * `GET /api/hyperfleet/v1/openapi.json` and `.yaml`: the OpenAPI document (openapi-document.ts), built once
 * from the kinds. Static routes, so Fastify prefers them over the `:plural` collection route.
 */
import { Controller, Get, Header, Inject } from '@nestjs/common';
import { stringify } from 'yaml';
import { KIND_REGISTRY } from '@decom/application';
import type { KindRegistry } from '@decom/domain';
import { buildOpenApiDocument } from './openapi-document.js';
import { API_OPTIONS, type ApiOptions } from '../tokens.js';

@Controller('api/hyperfleet/v1')
export class OpenApiController {
  private readonly document: Record<string, unknown>;
  private yamlText?: string;

  constructor(@Inject(KIND_REGISTRY) kinds: KindRegistry, @Inject(API_OPTIONS) options: ApiOptions) {
    this.document = buildOpenApiDocument(kinds, options.version ?? '0.0.0');
  }

  @Get('openapi.json')
  json(): Record<string, unknown> {
    return this.document;
  }

  @Get('openapi.yaml')
  @Header('content-type', 'application/yaml; charset=utf-8')
  yaml(): string {
    // Written out in full: shared schema objects as YAML aliases would exceed the alias limits YAML readers
    // enforce against alias bombs (the `yaml` package's parse refuses over 100), and OpenAPI tools expect none.
    this.yamlText ??= stringify(this.document, { aliasDuplicateObjects: false });
    return this.yamlText;
  }
}
