/**
 * Kubeconfig for a local API server: one cluster (`insecure-skip-tls-verify: true`, which
 * @kubernetes/client-node requires before it talks plain `http://`), one credential-less user, one
 * context whose namespace is `default`.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';

const NAME = 'kube-local';

/** The content of a kubeconfig file pointing at `url` (YAML). */
export function kubeconfigYamlFor(url: string, namespace = 'default'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: NAME, cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name: NAME, user: {} }],
    contexts: [{ name: NAME, context: { cluster: NAME, user: NAME, namespace } }],
    'current-context': NAME,
    preferences: {},
  });
}

/** A ready `KubeConfig` for `url`, loaded from the same YAML a file would hold. */
export function kubeConfigFor(url: string, namespace = 'default'): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfigYamlFor(url, namespace));
  return kc;
}
