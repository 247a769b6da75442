/**
 * A tiny HTTP client for the demo and e2e tests: JSON in, `{status, body}` out, identity header set.
 */
export interface HttpAnswer<T = any> {
  readonly status: number;
  readonly body: T;
  readonly contentType: string;
}

export class DemoApi {
  constructor(
    readonly baseUrl: string,
    private readonly identity = 'operator@example.com',
  ) {}

  async call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer<T>> {
    const response = await fetch(`${this.baseUrl}/api/hyperfleet/v1${path}`, {
      method,
      headers: {
        'x-hyperfleet-identity': this.identity,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, contentType: response.headers.get('content-type') ?? '' };
  }

  get<T = any>(path: string) {
    return this.call<T>('GET', path);
  }
}

/** Polls `probe` until it returns a value, or throws after `timeoutMs` with `what` in the message. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
