/**
 * Holds the OpenAPI document once `createApiApp` has generated it from the application's controllers
 * (openapi-document.ts), for `OpenApiController` to serve: the document needs the built application, so
 * it cannot be made in a provider's constructor.
 */
import { Injectable } from '@nestjs/common';

@Injectable()
export class OpenApiDocumentSlot {
  private document?: Record<string, unknown>;

  set(document: Record<string, unknown>): void {
    this.document = document;
  }

  /** @throws Error before `createApiApp` set it (a programming error: the app is served only after). */
  get(): Record<string, unknown> {
    if (!this.document) throw new Error('the OpenAPI document is not generated yet');
    return this.document;
  }
}
