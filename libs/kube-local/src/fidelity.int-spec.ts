import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { REALISTIC_CONTROLLER_DELAY_MS, startLocalKube, type LocalKube } from './index.js';

/**
 * Fidelity table: requests and the answers kube-apiserver gives to them, each row citing the
 * Kubernetes source or documentation it comes from. Run against the bundled server always, and
 * against a real cluster when DECOM_FIDELITY_KUBECONFIG names a kubeconfig (a kind or minikube
 * cluster will do), so the table itself can be checked. Plain HTTP, no client library rewriting
 * bodies. Paths in `cite` are in kubernetes/kubernetes unless they name a staging repository.
 */

interface HttpAnswer {
  readonly code: number;
  readonly body: Record<string, unknown>;
  readonly warning: string | undefined;
}

interface Step {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `{ns}` is the row's namespace. */
  readonly path: string;
  readonly body?: unknown;
  readonly contentType?: string;
  /** What the answer must be; absent = any 2xx (a setup step). */
  readonly expect?: {
    readonly code: number;
    readonly reason?: string;
    /** Field paths that must all appear in `details.causes`. */
    readonly causes?: readonly string[];
    /** A substring of `message`. */
    readonly message?: string;
    /** A substring of the `Warning` header, or `null` for no header. */
    readonly warning?: string | null;
    /** Further checks of the body. */
    readonly body?: (body: Record<string, unknown>) => void;
  };
}

interface Row {
  readonly item: string;
  readonly name: string;
  readonly cite: string;
  readonly steps: readonly Step[];
}

const pod = (restartPolicy: string) => ({
  restartPolicy,
  containers: [{ name: 'main', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'] }],
});
const job = (name: string, spec: unknown = { template: { spec: pod('Never') } }) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec,
});
const specLessJob = (name: string) => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name } });
const configMap = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { a: 'b' },
  ...extra,
});
const secret = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name },
  type: 'Opaque',
  ...extra,
});
const deployment = (name: string, spec: unknown) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec });
const JOBS = '/apis/batch/v1/namespaces/{ns}/jobs';
const CMS = '/api/v1/namespaces/{ns}/configmaps';
const SECRETS = '/api/v1/namespaces/{ns}/secrets';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/{ns}/deployments';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const APPLY = 'application/apply-patch+yaml';
/** `metadata.managedFields` without the `time`s. */
const managers = (b: Record<string, unknown>) =>
  ((b.metadata as { managedFields?: Record<string, unknown>[] }).managedFields ?? []).map(({ time: _time, ...rest }) => rest);

export const FIDELITY_ROWS: readonly Row[] = [
  // 1. The shipped default adapter's Job.
  {
    item: '1',
    name: 'a Job without spec is 422 Invalid: containers and restartPolicy required',
    cite: 'pkg/apis/batch/validation/validation.go validateJobSpec; pkg/apis/core/validation/validation.go validateContainers',
    steps: [
      {
        method: 'POST',
        path: JOBS,
        body: specLessJob('no-spec'),
        expect: { code: 422, reason: 'Invalid', causes: ['spec.template.spec.containers', 'spec.template.spec.restartPolicy'] },
      },
    ],
  },
  {
    item: '1',
    name: 'a Job template with restartPolicy Always is 422 Unsupported value',
    cite: 'pkg/apis/batch/validation/validation.go validateJobSpec (restartPolicy OnFailure or Never)',
    steps: [
      {
        method: 'POST',
        path: JOBS,
        body: job('always', { template: { spec: pod('Always') } }),
        expect: { code: 422, reason: 'Invalid', causes: ['spec.template.spec.restartPolicy'], message: 'Unsupported value: "Always"' },
      },
    ],
  },
  {
    item: '1',
    name: 'a valid Job is created with its defaults and generated selector',
    cite: 'pkg/apis/batch/v1/defaults.go SetDefaults_Job; pkg/registry/batch/job/strategy.go generateSelector',
    steps: [
      {
        method: 'POST',
        path: JOBS,
        body: job('valid'),
        expect: {
          code: 201,
          body: (b) => {
            const spec = b.spec as Record<string, unknown>;
            expect(spec).toMatchObject({ backoffLimit: 6, completions: 1, parallelism: 1, completionMode: 'NonIndexed', suspend: false });
            expect(spec.selector).toMatchObject({
              matchLabels: { 'batch.kubernetes.io/controller-uid': (b.metadata as { uid: string }).uid },
            });
            expect(spec.template).toMatchObject({ metadata: { labels: { 'batch.kubernetes.io/job-name': 'valid', 'job-name': 'valid' } } });
          },
        },
      },
    ],
  },
  // 2. Validation, defaulting and pruning of bodies.
  {
    item: '2',
    name: 'ConfigMap data with a number is 400: it does not decode into map[string]string',
    cite: 'staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go (decode error → BadRequest); ConfigMap.data is map[string]string',
    steps: [
      {
        method: 'POST',
        path: CMS,
        body: configMap('number', { data: { a: 1 } }),
        expect: { code: 400, reason: 'BadRequest', message: 'cannot unmarshal number' },
      },
    ],
  },
  {
    item: '2',
    name: 'an unknown field is dropped with a Warning by default (fieldValidation=Warn)',
    cite: 'KEP-2885 server-side unknown field validation; docs: API concepts, "Field validation"',
    steps: [
      {
        method: 'POST',
        path: CMS,
        body: configMap('unknown', { colour: 'blue' }),
        // The header quotes the text (RFC 7234 warn-text): `299 - "unknown field \"colour\""`.
        expect: { code: 201, warning: 'unknown field \\"colour\\"', body: (b) => expect(b).not.toHaveProperty('colour') },
      },
      { method: 'GET', path: `${CMS}/unknown`, expect: { code: 200, body: (b) => expect(b).not.toHaveProperty('colour') } },
    ],
  },
  {
    item: '2',
    name: 'an unknown field under fieldValidation=Strict is 400 strict decoding error',
    cite: 'staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go (strict decoding); docs: API concepts, "Field validation"',
    steps: [
      {
        method: 'POST',
        path: `${CMS}?fieldValidation=Strict`,
        body: configMap('strict', { colour: 'blue' }),
        expect: { code: 400, reason: 'BadRequest', message: 'strict decoding error: unknown field "colour"' },
      },
    ],
  },
  {
    item: '2',
    name: 'an unknown field under fieldValidation=Ignore is dropped without a Warning',
    cite: 'docs: API concepts, "Field validation" (Ignore)',
    steps: [
      {
        method: 'POST',
        path: `${CMS}?fieldValidation=Ignore`,
        body: configMap('ignored', { colour: 'blue' }),
        expect: { code: 201, warning: null, body: (b) => expect(b).not.toHaveProperty('colour') },
      },
    ],
  },
  {
    item: '2',
    name: 'fieldValidation=Loose is 422 Invalid (CreateOptions)',
    cite: 'staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go ValidateFieldValidation',
    steps: [
      {
        method: 'POST',
        path: `${CMS}?fieldValidation=Loose`,
        body: configMap('loose'),
        expect: { code: 422, reason: 'Invalid', causes: ['fieldValidation'] },
      },
    ],
  },
  {
    item: '2',
    name: 'a Deployment with replicas "3" is 400: a string does not decode into int32',
    cite: 'staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go (decode error); DeploymentSpec.replicas is *int32',
    steps: [
      {
        method: 'POST',
        path: DEPLOYMENTS,
        body: deployment('quoted', { replicas: '3' }),
        expect: { code: 400, reason: 'BadRequest', message: 'cannot unmarshal string' },
      },
    ],
  },
  {
    item: '2',
    name: 'a Deployment without selector and template is 422 Invalid',
    cite: 'pkg/apis/apps/validation/validation.go ValidateDeploymentSpec',
    steps: [
      {
        method: 'POST',
        path: DEPLOYMENTS,
        body: deployment('empty', { replicas: 1 }),
        expect: { code: 422, reason: 'Invalid', causes: ['spec.selector', 'spec.template.spec.containers'] },
      },
    ],
  },
  {
    item: '2',
    name: 'a valid Deployment gets replicas, strategy, revisionHistoryLimit and progressDeadlineSeconds defaults',
    cite: 'pkg/apis/apps/v1/defaults.go SetDefaults_Deployment; pkg/apis/core/v1/defaults.go SetDefaults_PodSpec, SetDefaults_Container',
    steps: [
      {
        method: 'POST',
        path: DEPLOYMENTS,
        body: deployment('web', {
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'web', image: 'busybox:1.36', command: ['sleep', '3600'] }] },
          },
        }),
        expect: {
          code: 201,
          body: (b) =>
            expect(b.spec).toMatchObject({
              replicas: 1,
              revisionHistoryLimit: 10,
              progressDeadlineSeconds: 600,
              strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
              template: {
                spec: {
                  restartPolicy: 'Always',
                  dnsPolicy: 'ClusterFirst',
                  terminationGracePeriodSeconds: 30,
                  containers: [{ imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log' }],
                },
              },
            }),
        },
      },
    ],
  },
  // 3. Secret stringData and base64.
  {
    item: '3',
    name: 'Secret stringData is merged into base64 data and never returned',
    cite: 'pkg/apis/core/v1/conversion.go Convert_v1_Secret_To_core_Secret; docs: Secrets, "stringData"',
    steps: [
      {
        method: 'POST',
        path: SECRETS,
        body: secret('pull', { data: { keep: b64('kept'), token: b64('old') }, stringData: { token: 's3cret' } }),
        expect: {
          code: 201,
          body: (b) => expect(b).toEqual(expect.objectContaining({ data: { keep: b64('kept'), token: b64('s3cret') } })),
        },
      },
      { method: 'GET', path: `${SECRETS}/pull`, expect: { code: 200, body: (b) => expect(b).not.toHaveProperty('stringData') } },
    ],
  },
  {
    item: '3',
    name: 'Secret data that is not base64 is 400: it does not decode into []byte',
    cite: 'staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go (decode error); Secret.data is map[string][]byte',
    steps: [
      {
        method: 'POST',
        path: SECRETS,
        body: secret('raw', { data: { token: 'not base64!' } }),
        expect: { code: 400, reason: 'BadRequest', message: 'illegal base64 data' },
      },
    ],
  },
  // 4. Update and immutability rules.
  {
    item: '4',
    name: "changing a Job's pod template is 422 field is immutable",
    cite: 'pkg/apis/batch/validation/validation.go validateJobSpecUpdate',
    steps: [
      { method: 'POST', path: JOBS, body: job('fixed') },
      {
        method: 'PATCH',
        path: `${JOBS}/fixed`,
        contentType: 'application/merge-patch+json',
        body: { spec: { template: { spec: { containers: [{ name: 'main', image: 'busybox:1.37', command: ['true'] }] } } } },
        expect: { code: 422, reason: 'Invalid', causes: ['spec.template'], message: 'field is immutable' },
      },
    ],
  },
  {
    item: '4',
    name: "changing a Secret's type is 422 field is immutable",
    cite: 'pkg/apis/core/validation/validation.go ValidateSecretUpdate',
    steps: [
      { method: 'POST', path: SECRETS, body: secret('typed', { data: { a: b64('b') } }) },
      {
        method: 'PATCH',
        path: `${SECRETS}/typed`,
        contentType: 'application/merge-patch+json',
        body: { type: 'example.com/other' },
        expect: { code: 422, reason: 'Invalid', causes: ['type'], message: 'field is immutable' },
      },
    ],
  },
  {
    item: '4',
    name: 'writing the data of an immutable ConfigMap is 422 Forbidden',
    cite: 'pkg/apis/core/validation/validation.go ValidateConfigMapUpdate',
    steps: [
      { method: 'POST', path: CMS, body: configMap('frozen', { immutable: true }) },
      {
        method: 'PATCH',
        path: `${CMS}/frozen`,
        contentType: 'application/merge-patch+json',
        body: { data: { a: 'c' } },
        expect: { code: 422, reason: 'Invalid', causes: ['data'], message: 'field is immutable when `immutable` is set' },
      },
    ],
  },
  {
    item: '4',
    name: 'renaming a Pod container is 422 Forbidden (pod updates may not change fields other than …)',
    cite: 'pkg/apis/core/validation/validation.go ValidatePodUpdate',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/{ns}/pods',
        body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: pod('Never') },
      },
      {
        method: 'PATCH',
        path: '/api/v1/namespaces/{ns}/pods/p',
        contentType: 'application/json-patch+json',
        body: [{ op: 'replace', path: '/spec/containers/0/name', value: 'renamed' }],
        expect: { code: 422, reason: 'Invalid', causes: ['spec'], message: 'pod updates may not change fields' },
      },
    ],
  },
  // 5. Controllers take their time.
  {
    item: '5',
    name: 'a namespace with content is still there, Terminating, right after its DELETE',
    cite: 'pkg/controller/namespace/deletion/namespaced_resources_deleter.go (content deleted asynchronously, then the kubernetes finalizer removed); docs: Namespaces, "Deleting a namespace"',
    steps: [
      { method: 'POST', path: CMS, body: configMap('content') },
      {
        method: 'DELETE',
        path: '/api/v1/namespaces/{ns}',
        expect: { code: 200, body: (b) => expect(b.status).toMatchObject({ phase: 'Terminating' }) },
      },
      {
        method: 'GET',
        path: '/api/v1/namespaces/{ns}',
        expect: { code: 200, body: (b) => expect(b.status).toMatchObject({ phase: 'Terminating' }) },
      },
    ],
  },
  // 6. Size limits and dryRun values.
  {
    item: '6',
    name: 'a ConfigMap over 1 MiB is 422 Too long',
    cite: 'pkg/apis/core/validation/validation.go ValidateConfigMap (totalSize > core.MaxSecretSize)',
    steps: [
      {
        method: 'POST',
        path: CMS,
        body: configMap('big', { data: { a: 'x'.repeat(1_100_000) } }),
        expect: { code: 422, reason: 'Invalid', message: 'must have at most 1048576 bytes' },
      },
    ],
  },
  {
    item: '6',
    name: 'annotations over 256 KiB in total are 422 Too long',
    cite: 'staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go ValidateAnnotationsSize (TotalAnnotationSizeLimitB)',
    steps: [
      {
        method: 'POST',
        path: CMS,
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'noted', annotations: { note: 'x'.repeat(300_000) } } },
        expect: { code: 422, reason: 'Invalid', causes: ['metadata.annotations'], message: 'must have at most 262144 bytes' },
      },
    ],
  },
  {
    item: '6',
    name: 'dryRun=Bogus is 422 Invalid (CreateOptions) and creates nothing',
    cite: 'staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go ValidateDryRun',
    steps: [
      {
        method: 'POST',
        path: `${CMS}?dryRun=Bogus`,
        body: configMap('bogus'),
        expect: { code: 422, reason: 'Invalid', causes: ['dryRun'], message: 'supported values: "All"' },
      },
      { method: 'GET', path: `${CMS}/bogus`, expect: { code: 404, reason: 'NotFound' } },
    ],
  },
  {
    item: '6',
    name: 'dryRun=All answers as a create would and stores nothing',
    cite: 'docs: API concepts, "Dry-run"',
    steps: [
      {
        method: 'POST',
        path: `${CMS}?dryRun=All`,
        body: configMap('rehearsed'),
        expect: { code: 201, body: (b) => expect(b).toMatchObject({ metadata: { name: 'rehearsed' } }) },
      },
      { method: 'GET', path: `${CMS}/rehearsed`, expect: { code: 404, reason: 'NotFound' } },
    ],
  },
  // 7. Server-side apply.
  {
    item: '7',
    name: 'an apply without fieldManager is 422 Invalid (PatchOptions)',
    cite: 'staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go ValidatePatchOptions',
    steps: [
      {
        method: 'PATCH',
        path: `${CMS}/applied`,
        contentType: APPLY,
        body: configMap('applied'),
        expect: { code: 422, reason: 'Invalid', causes: ['fieldManager'], message: 'is required for apply patch' },
      },
    ],
  },
  {
    item: '7',
    name: 'an apply without apiVersion and kind is 400 and creates nothing',
    cite: 'staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal/structuredmerge.go Apply (Incorrect version specified in apply patch)',
    steps: [
      {
        method: 'PATCH',
        path: `${CMS}/bare?fieldManager=alice`,
        contentType: APPLY,
        body: { metadata: { name: 'bare' }, data: { a: 'b' } },
        expect: { code: 400, reason: 'BadRequest' },
      },
      { method: 'GET', path: `${CMS}/bare`, expect: { code: 404, reason: 'NotFound' } },
    ],
  },
  {
    item: '7',
    name: 'an apply records its fields in managedFields (operation Apply, FieldsV1)',
    cite: 'docs: Server-Side Apply, "Field Management"; staging/src/k8s.io/apimachinery/pkg/util/managedfields',
    steps: [
      {
        method: 'PATCH',
        path: `${CMS}/owned?fieldManager=alice`,
        contentType: APPLY,
        body: configMap('owned', { data: { a: 'one' } }),
        expect: {
          code: 201,
          body: (b) =>
            expect(managers(b)).toEqual([
              { manager: 'alice', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } },
            ]),
        },
      },
    ],
  },
  {
    item: '7',
    name: 'another manager applying an owned field with another value is 409 Apply failed with 1 conflict; force=true takes it',
    cite: 'staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal/conflict.go NewConflictError; docs: Server-Side Apply, "Conflicts"',
    steps: [
      { method: 'PATCH', path: `${CMS}/shared?fieldManager=alice`, contentType: APPLY, body: configMap('shared', { data: { a: 'one' } }) },
      {
        method: 'PATCH',
        path: `${CMS}/shared?fieldManager=bob`,
        contentType: APPLY,
        body: configMap('shared', { data: { a: 'two' } }),
        expect: {
          code: 409,
          reason: 'Conflict',
          causes: ['.data.a'],
          message: 'Apply failed with 1 conflict: conflict with "alice": .data.a',
        },
      },
      {
        method: 'PATCH',
        path: `${CMS}/shared?fieldManager=bob`,
        contentType: APPLY,
        body: configMap('shared', { data: { a: 'one' } }),
        expect: { code: 200 },
      },
      {
        method: 'PATCH',
        path: `${CMS}/shared?fieldManager=bob&force=true`,
        contentType: APPLY,
        body: configMap('shared', { data: { a: 'two' } }),
        expect: { code: 200, body: (b) => expect([b.data, managers(b).map((m) => m.manager)]).toEqual([{ a: 'two' }, ['bob']]) },
      },
    ],
  },
  {
    item: '7',
    name: "a field left out of a manager's next apply is removed",
    cite: 'docs: Server-Side Apply, "Merge strategy" (fields removed from the configuration are removed when no other manager owns them)',
    steps: [
      {
        method: 'PATCH',
        path: `${CMS}/shrinking?fieldManager=alice`,
        contentType: APPLY,
        body: configMap('shrinking', { data: { a: 'one', b: 'two' } }),
      },
      {
        method: 'PATCH',
        path: `${CMS}/shrinking?fieldManager=alice`,
        contentType: APPLY,
        body: configMap('shrinking', { data: { a: 'one' } }),
        expect: { code: 200, body: (b) => expect(b.data).toEqual({ a: 'one' }) },
      },
    ],
  },
  {
    item: '7',
    name: 'an update takes an applied field without conflict and owns it (operation Update)',
    cite: 'docs: Server-Side Apply, "Comparison with Update"',
    steps: [
      { method: 'PATCH', path: `${CMS}/edited?fieldManager=alice`, contentType: APPLY, body: configMap('edited', { data: { a: 'one' } }) },
      {
        method: 'PATCH',
        path: `${CMS}/edited?fieldManager=carol`,
        contentType: 'application/merge-patch+json',
        body: { data: { a: 'two' } },
        expect: {
          code: 200,
          body: (b) =>
            expect(managers(b).map((m) => [m.manager, m.operation, m.fieldsV1])).toEqual([
              ['carol', 'Update', { 'f:data': { 'f:a': {} } }],
            ]),
        },
      },
      {
        method: 'PATCH',
        path: `${CMS}/edited?fieldManager=alice`,
        contentType: APPLY,
        body: configMap('edited', { data: { a: 'one' } }),
        expect: { code: 409, reason: 'Conflict', causes: ['.data.a'], message: 'conflict with "carol" using v1' },
      },
    ],
  },
  // 8. What kubectl needs.
  {
    item: '8',
    name: '/openapi/v3 lists a document per group-version, and its ConfigMap PATCH takes fieldValidation',
    cite: 'staging/src/k8s.io/kube-openapi/pkg/handler3/handler.go; staging/src/k8s.io/kubectl/pkg/cmd/util/query_param_verifier_v3.go',
    steps: [
      {
        method: 'GET',
        path: '/openapi/v3',
        expect: {
          code: 200,
          body: (b) =>
            expect((b.paths as Record<string, { serverRelativeURL: string }>)['api/v1']?.serverRelativeURL).toMatch(
              /^\/openapi\/v3\/api\/v1\?hash=/,
            ),
        },
      },
      {
        method: 'GET',
        path: '/openapi/v3/api/v1',
        expect: {
          code: 200,
          body: (b) =>
            expect(patchParameters(b, { group: '', version: 'v1', kind: 'ConfigMap' })).toEqual(
              expect.arrayContaining(['fieldValidation', 'dryRun', 'fieldManager']),
            ),
        },
      },
    ],
  },
  {
    item: '8',
    name: "/openapi/v3's Job schema has the fields the server keeps, found by x-kubernetes-group-version-kind",
    cite: 'staging/src/k8s.io/kube-openapi/pkg/builder3; docs: Kubernetes API, "OpenAPI V3"',
    steps: [
      {
        method: 'GET',
        path: '/openapi/v3/apis/batch/v1',
        expect: {
          code: 200,
          body: (b) =>
            expect(Object.keys(schemaOfKind(b, { group: 'batch', version: 'v1', kind: 'Job' })?.properties ?? {})).toEqual(
              expect.arrayContaining(['apiVersion', 'kind', 'metadata', 'spec', 'status']),
            ),
        },
      },
    ],
  },
  {
    item: '8',
    name: '/openapi/v2 has a definition per served kind (JSON)',
    cite: 'staging/src/k8s.io/kube-openapi/pkg/handler/handler.go',
    steps: [
      {
        method: 'GET',
        path: '/openapi/v2',
        expect: {
          code: 200,
          body: (b) =>
            expect(
              Object.values(b.definitions as Record<string, Schema>).some((d) =>
                hasGvk(d['x-kubernetes-group-version-kind'], { group: 'apps', version: 'v1', kind: 'Deployment' }),
              ),
            ).toBe(true),
        },
      },
    ],
  },
  {
    item: '8',
    name: 'a body in a format the server does not decode (CBOR) is 415 UnsupportedMediaType',
    cite: 'staging/src/k8s.io/apiserver/pkg/endpoints/handlers/negotiation/negotiate.go NegotiateInputSerializer',
    steps: [
      {
        method: 'POST',
        path: CMS,
        contentType: 'application/cbor',
        body: configMap('cbor'),
        expect: { code: 415, reason: 'UnsupportedMediaType' },
      },
    ],
  },
  {
    item: '8',
    name: 'core/v1 and events.k8s.io/v1 events are served; an Event is found by involvedObject field selectors',
    cite: 'pkg/registry/core/event/strategy.go ToSelectableFields; pkg/apis/events/v1',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/{ns}/events',
        body: {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: 'cm.1' },
          involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', namespace: '{ns}' },
          reason: 'Tested',
          message: 'a test event',
          type: 'Normal',
          source: { component: 'fidelity' },
          firstTimestamp: '2026-01-01T00:00:00Z',
          lastTimestamp: '2026-01-01T00:00:00Z',
          count: 1,
        },
      },
      {
        method: 'GET',
        path: '/api/v1/namespaces/{ns}/events?fieldSelector=involvedObject.kind%3DConfigMap,involvedObject.name%3Dcm,reason%3DTested',
        expect: { code: 200, body: (b) => expect((b.items as { reason: string }[]).map((e) => e.reason)).toEqual(['Tested']) },
      },
      {
        method: 'GET',
        path: '/api/v1/namespaces/{ns}/events?fieldSelector=involvedObject.name%3Dother',
        expect: { code: 200, body: (b) => expect(b.items).toEqual([]) },
      },
      {
        method: 'GET',
        path: '/apis/events.k8s.io/v1/namespaces/{ns}/events',
        expect: { code: 200, body: (b) => expect(b.kind).toBe('EventList') },
      },
    ],
  },
  {
    item: '8',
    name: 'pods are selected by status.phase; a ConfigMap field selector on status.phase is 400',
    cite: 'pkg/registry/core/pod/strategy.go ToSelectableFields; staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (field label not supported)',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/{ns}/pods',
        body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: pod('Never') },
      },
      {
        method: 'GET',
        path: '/api/v1/namespaces/{ns}/pods?fieldSelector=status.phase%3DPending',
        expect: {
          code: 200,
          body: (b) => expect((b.items as { metadata: { name: string } }[]).map((p) => p.metadata.name)).toEqual(['p']),
        },
      },
      {
        method: 'GET',
        path: '/api/v1/namespaces/{ns}/pods?fieldSelector=status.phase%3DSucceeded',
        expect: { code: 200, body: (b) => expect(b.items).toEqual([]) },
      },
      {
        method: 'GET',
        path: `${CMS}?fieldSelector=status.phase%3DPending`,
        expect: { code: 400, reason: 'BadRequest', message: 'field label not supported: status.phase' },
      },
    ],
  },
];

type Schema = Record<string, unknown> & { properties?: Record<string, unknown> };
type Gvk = { group: string; version: string; kind: string };

/** Whether an `x-kubernetes-group-version-kind` value (one, or a list) names `gvk`. */
function hasGvk(value: unknown, gvk: Gvk): boolean {
  const all = Array.isArray(value) ? value : [value];
  return all.some((v: Partial<Gvk> | undefined) => v?.group === gvk.group && v.version === gvk.version && v.kind === gvk.kind);
}

/** The schema of a kind in an OpenAPI v3 document, found as kubectl finds it (by GVK, not by name). */
function schemaOfKind(doc: Record<string, unknown>, gvk: Gvk): Schema | undefined {
  const schemas = (doc.components as { schemas: Record<string, Schema> }).schemas;
  return Object.values(schemas).find((s) => hasGvk(s['x-kubernetes-group-version-kind'], gvk));
}

/** The query parameters of the PATCH operation for `gvk` in an OpenAPI v3 document. */
function patchParameters(doc: Record<string, unknown>, gvk: Gvk): string[] {
  const paths = doc.paths as Record<
    string,
    {
      patch?: { 'x-kubernetes-group-version-kind'?: unknown; parameters?: { name: string; in: string }[] };
      parameters?: { name: string; in: string }[];
    }
  >;
  const item = Object.values(paths).find((p) => p.patch && hasGvk(p.patch['x-kubernetes-group-version-kind'], gvk));
  return [...(item?.parameters ?? []), ...(item?.patch?.parameters ?? [])].filter((p) => p.in === 'query').map((p) => p.name);
}

/** Plain HTTP(S) to the cluster a kubeconfig names, with its credentials. */
class Http {
  constructor(private readonly kc: KubeConfig) {}

  async send(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<HttpAnswer> {
    const server = this.kc.getCurrentCluster()?.server;
    if (!server) throw new Error('kubeconfig names no current cluster');
    const url = new URL(path, server);
    const options: RequestOptions = {
      method,
      headers: { Accept: 'application/json', ...(body !== undefined && { 'Content-Type': contentType }) },
    };
    await this.kc.applyToHTTPSOptions(options);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(url, options, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const warning = res.headers.warning;
          resolve({
            code: res.statusCode ?? 0,
            body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
            warning: Array.isArray(warning) ? warning.join(', ') : warning,
          });
        });
      });
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }
}

async function runRow(http: Http, row: Row): Promise<void> {
  const ns = `fidelity-${randomBytes(4).toString('hex')}`;
  const created = await http.send('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  expect(created.code).toBe(201);
  try {
    for (const [i, step] of row.steps.entries()) {
      const body = step.body === undefined ? undefined : JSON.parse(JSON.stringify(step.body).replaceAll('{ns}', ns));
      const answer = await http.send(step.method, step.path.replace('{ns}', ns), body, step.contentType);
      const where = `${row.name}: step ${i + 1} (${step.method} ${step.path})`;
      const expected = step.expect;
      if (!expected) {
        expect({ where, ok: answer.code >= 200 && answer.code < 300, answer: answer.code >= 300 ? answer.body : undefined }).toEqual({
          where,
          ok: true,
          answer: undefined,
        });
        continue;
      }
      expect({ where, code: answer.code, ...(expected.reason && { reason: answer.body.reason }) }).toEqual({
        where,
        code: expected.code,
        ...(expected.reason && { reason: expected.reason }),
      });
      if (expected.message !== undefined) expect(String(answer.body.message)).toContain(expected.message);
      if (expected.causes) {
        const fields = ((answer.body.details as { causes?: { field?: string }[] } | undefined)?.causes ?? []).map((c) => c.field);
        expect(fields).toEqual(expect.arrayContaining([...expected.causes]));
      }
      if (expected.warning === null) expect(answer.warning).toBeUndefined();
      else if (expected.warning !== undefined) expect(answer.warning ?? '').toContain(expected.warning);
      expected.body?.(answer.body);
    }
  } finally {
    await http.send('DELETE', `/api/v1/namespaces/${ns}`);
  }
}

describe('fidelity table against the bundled server', () => {
  let kube: LocalKube;
  let http: Http;
  beforeAll(async () => {
    // The top of the realistic range: the controller-timing row reads a namespace right after its
    // DELETE, and a loaded machine must not stretch that read past the controllers' first pass.
    kube = await startLocalKube({ controllerDelayMs: { min: 250, max: REALISTIC_CONTROLLER_DELAY_MS.max } });
    http = new Http(kube.kubeConfig());
  });
  afterAll(() => kube.close());

  it('has rows for each behaviour it checks, each citing its source', () => {
    expect(new Set(FIDELITY_ROWS.map((r) => r.item))).toEqual(new Set(['1', '2', '3', '4', '5', '6', '7', '8']));
    for (const row of FIDELITY_ROWS) expect(row.cite).toMatch(/\.go|docs:|KEP/);
  });

  it.each(FIDELITY_ROWS.map((r) => [`${r.item}: ${r.name}`, r] as const))('%s', async (_name, row) => {
    await runRow(http, row);
  });
});

const realCluster = process.env.DECOM_FIDELITY_KUBECONFIG;
if (!realCluster) {
  console.log(
    'fidelity table against a real cluster: skipped (set DECOM_FIDELITY_KUBECONFIG to a kubeconfig of a kind/minikube cluster to run it)',
  );
}

(realCluster ? describe : describe.skip)('fidelity table against the cluster of DECOM_FIDELITY_KUBECONFIG', () => {
  let http: Http;
  beforeAll(() => {
    const kc = new KubeConfig();
    kc.loadFromFile(realCluster!);
    http = new Http(kc);
  });

  it.each(FIDELITY_ROWS.map((r) => [`${r.item}: ${r.name}`, r] as const))('%s', async (_name, row) => {
    await runRow(http, row);
  });
});
