/**
 * The bundled local Kubernetes API server (libs/kube-local) in a process of its own, for the distributed
 * topology of scenario P2: `decom api` and two `decom worker` processes reach it through a
 * kubeconfig file, as they would a real cluster.
 * Usage: `node kube-server.js <kubeconfig-path>`; writes the kubeconfig, logs `kube ready <url>`, stops on SIGTERM.
 * Its probe answers carry `kube_requests`: the requests the server answered so far (P2's calls per resource).
 */
import { writeFileSync } from 'node:fs';
import { startLocalKube } from '@decom/kube-local';
import { setProbeCounters } from './probe-preload.js';

const [kubeconfigPath] = process.argv.slice(2);
const kube = await startLocalKube();
setProbeCounters(() => ({ kube_requests: kube.requests.at(-1)?.seq ?? 0 }));
writeFileSync(kubeconfigPath!, kube.kubeconfigYaml(), { mode: 0o600 });
process.stdout.write(`kube ready ${kube.url}\n`);
process.once('SIGTERM', () => void kube.close().then(() => process.exit(0)));
