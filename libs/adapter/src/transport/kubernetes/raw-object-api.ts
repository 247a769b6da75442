import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { ApiException, KubernetesObjectApi, ServerConfiguration, createConfiguration } from '@kubernetes/client-node';
import type { KubeConfig, RequestContext, ResponseContext } from '@kubernetes/client-node';
import { outgoingTraceHeaders } from '@decom/tracing';

/**
 * `KubernetesObjectApi` that hands back the server's JSON untouched. The stock client
 * deserialises known kinds into typed models, which drops fields the model does not know and
 * turns timestamps into `Date`s; CEL expressions and status payloads need the wire shape.
 */
export class RawKubernetesObjectApi extends KubernetesObjectApi {
  /**
   * As `kubeConfig.makeApiClient`, with one addition: each request made inside a trace carries its W3C
   * `traceparent` (and `X-Request-Id`) header (`@decom/tracing`), added after the kubeconfig's own auth.
   * @throws Error when the kubeconfig has no current cluster.
   */
  static fromKubeConfig(kubeConfig: KubeConfig): RawKubernetesObjectApi {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('No active cluster!');
    let agent: HttpAgent | undefined;
    const auth = {
      async applySecurityAuthentication(context: RequestContext): Promise<void> {
        await kubeConfig.applySecurityAuthentication(context);
        // client-node 1.4.0 builds a new Agent for every request: no connection is ever reused, so each
        // call pays a TCP connect (and against https a TLS handshake). One keep-alive agent per client,
        // with the options the kubeconfig gave the first one, instead (the Kubernetes round
        // trips of an adapter run). Proxy agents are left as they are.
        agent ??= keepAliveAgent(context.getAgent());
        if (agent) context.setAgent(agent);
        for (const [name, value] of Object.entries(outgoingTraceHeaders())) context.setHeaderParam(name, value);
      },
    };
    const client = new RawKubernetesObjectApi(
      createConfiguration({ baseServer: new ServerConfiguration(cluster.server, {}), authMethods: { default: auth as never } }),
    );
    client.setDefaultNamespace(kubeConfig);
    return client;
  }

  /**
   * API metadata (plural, scope) of a kind, from the server's discovery documents (cached).
   * @returns `undefined` when the server does not serve that kind.
   */
  async kindInfo(apiVersion: string, kind: string): Promise<{ name: string; namespaced: boolean } | undefined> {
    return this.resource(apiVersion, kind);
  }

  protected override async processResponse(response: ResponseContext): Promise<any> {
    const text = await response.body.text();
    if (response.httpStatusCode >= 200 && response.httpStatusCode <= 299) {
      return text.length > 0 ? JSON.parse(text) : {};
    }
    throw new ApiException(response.httpStatusCode, 'Unsuccessful HTTP Request', text, response.headers);
  }
}

/** A keep-alive copy of a plain `http`/`https` agent (its TLS options kept); undefined for any other kind. */
function keepAliveAgent(built: unknown): HttpAgent | undefined {
  const kind = (built as object | undefined)?.constructor;
  if (kind !== HttpAgent && kind !== HttpsAgent) return undefined;
  const { path: _path, ...options } = (built as { options?: Record<string, unknown> }).options ?? {};
  return kind === HttpsAgent ? new HttpsAgent({ ...options, keepAlive: true }) : new HttpAgent({ ...options, keepAlive: true });
}
