/**
 * `GET /api/hyperfleet/v1/openapi.json` and `.yaml`: the OpenAPI document generated from the application
 * (openapi-document.ts) on the first request. Static routes, so Fastify prefers them over the `:plural` collection route. Public
 * (auth/public-routes.ts): the API's shape, no data. Not in the document itself.
 */
import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { stringify } from 'yaml';
import { OpenApiDocumentSlot } from './openapi-document-slot.js';

@Controller('api/hyperfleet/v1')
@ApiExcludeController()
export class OpenApiController {
  private yamlText?: string;

  constructor(private readonly slot: OpenApiDocumentSlot) {}

  @Get('openapi.json')
  json(): Promise<Record<string, unknown>> {
    return this.slot.get();
  }

  @Get('openapi.yaml')
  @Header('content-type', 'application/yaml; charset=utf-8')
  async yaml(): Promise<string> {
    // Written out in full: shared schema objects as YAML aliases would exceed the alias limits YAML readers
    // enforce against alias bombs (the `yaml` package's parse refuses over 100), and OpenAPI tools expect none.
    this.yamlText ??= stringify(await this.slot.get(), { aliasDuplicateObjects: false });
    return this.yamlText;
  }
}
