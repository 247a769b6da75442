import { randomUUID } from 'node:crypto';
import { CloudEvent, HTTP } from 'cloudevents';
import { TransportError } from '../transport-error.js';
import type { ResourceBundle } from './resource-bundle.js';

/** CloudEvents data type of ManifestWork specs a source publishes (OCM `ManifestBundleEventDataType`). */
export const MANIFEST_BUNDLE_DATA_TYPE = 'io.open-cluster-management.works.v1alpha1.manifestbundles';

export type SpecAction = 'create_request' | 'update_request' | 'delete_request';

/** Where and how to reach Maestro (from `clients.maestro`; durations in milliseconds). */
export interface MaestroHttpClientOptions {
  /** `http_server_address`, e.g. `https://maestro.example:8000`. */
  readonly baseUrl: string;
  /** `source_id`: the CloudEvents source, part of every work id. */
  readonly sourceId: string;
  /** Per request; default 10 s. */
  readonly timeoutMs?: number;
  /** Where spec CloudEvents are POSTed (HTTP binding); default `<baseUrl>/cloudevents`. */
  readonly cloudEventsUrl?: string;
  readonly fetch?: typeof fetch;
  /** CloudEvent ids; default random UUIDs. */
  readonly newEventId?: () => string;
}

/** A ManifestWork spec to publish: the work's ObjectMeta and its manifest bundle. */
export interface SpecEvent {
  readonly action: SpecAction;
  readonly consumer: string;
  readonly resourceId: string;
  /** 0 on create; the bundle version the update is based on. */
  readonly resourceVersion: number;
  readonly metadata: Record<string, unknown>;
  readonly bundle?: { readonly manifests: readonly unknown[]; readonly deleteOption?: unknown; readonly manifestConfigs?: unknown };
}

const API = '/api/maestro/v1';
const PAGE_SIZE = 400;

const REASONS: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
};

/**
 * Maestro over HTTP: resource bundles through Maestro's REST API (`GET /resource-bundles`,
 * `GET|DELETE /resource-bundles/{id}`), and ManifestWork specs as the source client's CloudEvents
 * (`<data type>.spec.<action>`, extensions `clustername`, `resourceid`, `resourceversion`,
 * `metadata`) over the CloudEvents HTTP binding — the fallback when no `grpc_server_address` is
 * configured (real Maestro takes them over gRPC: `MaestroGrpcSourceClient`; docs/adapter-maestro.md).
 * Every failure is a `TransportError` (reason `NotFound`, `Conflict`, `InternalError`,
 * `ConnectionFailure`, ...), never a silent "absent".
 */
export class MaestroHttpClient {
  private readonly fetchFn: typeof fetch;
  private readonly base: string;

  constructor(readonly options: MaestroHttpClientOptions) {
    this.fetchFn = options.fetch ?? fetch;
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  get sourceId(): string {
    return this.options.sourceId;
  }

  /** @returns the bundle, or `undefined` on 404. */
  async getBundle(id: string): Promise<ResourceBundle | undefined> {
    const response = await this.send('GET', `${this.base}${API}/resource-bundles/${encodeURIComponent(id)}`);
    if (response.status === 404) return undefined;
    return (await this.json(response, `get resource bundle ${id}`)) as ResourceBundle;
  }

  /** Every bundle matching a Maestro `search` (all pages). */
  async listBundles(search: string): Promise<ResourceBundle[]> {
    const items: ResourceBundle[] = [];
    for (let page = 1; ; page += 1) {
      const query = new URLSearchParams({ search, page: String(page), size: String(PAGE_SIZE) });
      const response = await this.send('GET', `${this.base}${API}/resource-bundles?${query}`);
      const list = (await this.json(response, `list resource bundles (${search})`)) as { items?: ResourceBundle[]; size?: number };
      items.push(...(list.items ?? []));
      if ((list.size ?? list.items?.length ?? 0) < PAGE_SIZE) return items;
    }
  }

  /** Asks Maestro to delete a bundle; the agent confirms later (the bundle stays until then). */
  async deleteBundle(id: string): Promise<'deleted' | 'not-found'> {
    const response = await this.send('DELETE', `${this.base}${API}/resource-bundles/${encodeURIComponent(id)}`);
    if (response.status === 404) return 'not-found';
    await this.json(response, `delete resource bundle ${id}`);
    return 'deleted';
  }

  /** Publishes a ManifestWork spec event (structured CloudEvents HTTP binding). */
  async publish(spec: SpecEvent): Promise<void> {
    const event = new CloudEvent({
      id: (this.options.newEventId ?? randomUUID)(),
      type: `${MANIFEST_BUNDLE_DATA_TYPE}.spec.${spec.action}`,
      source: this.options.sourceId,
      datacontenttype: 'application/json',
      clustername: spec.consumer,
      resourceid: spec.resourceId,
      resourceversion: spec.resourceVersion,
      metadata: JSON.stringify(spec.metadata),
      ...(spec.bundle && { data: spec.bundle }),
    });
    const message = HTTP.structured(event);
    const url = this.options.cloudEventsUrl ?? `${this.base}/cloudevents`;
    const response = await this.send('POST', url, { headers: message.headers as Record<string, string>, body: String(message.body) });
    await this.json(response, `${spec.action} work ${spec.resourceId}`);
  }

  private async send(method: string, url: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Response> {
    try {
      return await this.fetchFn(url, {
        method,
        headers: { accept: 'application/json', ...init.headers },
        ...(init.body !== undefined && { body: init.body }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new TransportError(
        timedOut ? 'Timeout' : 'ConnectionFailure',
        `maestro ${method} ${url}: ${(error as Error).message}`,
        undefined,
        { cause: error },
      );
    }
  }

  /** The JSON body of a 2xx answer (`undefined` when empty). @throws TransportError otherwise. */
  private async json(response: Response, action: string): Promise<unknown> {
    const text = await response.text();
    let body: unknown;
    try {
      body = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    if (response.ok) return body;
    const reason = (body as { reason?: unknown } | undefined)?.reason;
    const detail = typeof reason === 'string' ? reason : typeof body === 'string' ? body.slice(0, 200) : '';
    const kind = REASONS[response.status] ?? (response.status >= 500 ? 'InternalError' : `HTTP${response.status}`);
    throw new TransportError(kind, `maestro ${action}: ${response.status} ${kind}${detail ? `: ${detail}` : ''}`, response.status);
  }
}
