import { join } from 'node:path';

/**
 * Where `decom start` writes the kubeconfig of the bundled Kubernetes API server while it runs (removed
 * at stop): `<DECOM_DATA_DIR>/kubeconfig`, for `kubectl`, `decom adapter plan` and `decom worker`.
 */
export function bundledKubeconfigPath(dataDir: string): string {
  return join(dataDir, 'kubeconfig');
}
