/**
 * Holds how to generate the OpenAPI document from the built application (openapi-document.ts), set by
 * `createApiApp`, for `OpenApiController` to serve: the document needs the application, so it cannot be
 * made in a provider's constructor. Generated on the first request and kept: scanning the controllers costs
 * a few hundred milliseconds that every engine start would otherwise pay.
 */
import { Injectable } from '@nestjs/common';

@Injectable()
export class OpenApiDocumentSlot {
  private generate?: () => Promise<Record<string, unknown>>;
  private document?: Promise<Record<string, unknown>>;

  set(generate: () => Promise<Record<string, unknown>>): void {
    this.generate = generate;
    this.document = undefined;
  }

  /** @throws Error before `createApiApp` set it (a programming error: the app is served only after). */
  get(): Promise<Record<string, unknown>> {
    if (!this.generate) throw new Error('the OpenAPI document has no generator yet');
    this.document ??= this.generate();
    return this.document;
  }
}
