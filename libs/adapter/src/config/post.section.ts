import { dirname } from 'node:path';
import { readApiCall, readLog, readWhen } from './api-call.section.js';
import { LoadContext } from './load-context.js';
import { readRefFile } from './resources.section.js';
import { readTemplateTree } from './template-tree.section.js';
import type { PayloadSpec, PostActionSpec, PostSpec, TemplateTree } from './task-config.types.js';
import { itemMap, type MapReader, YamlSource } from './yaml-reader.js';

/** Loads a `build_ref` YAML file; its issues carry that file's name and positions. */
function readBuildRef(ctx: LoadContext, map: MapReader): TemplateTree | undefined {
  const ref = map.string('build_ref', { required: true });
  if (ref === undefined) return undefined;
  const read = readRefFile(ctx, map.valueNode('build_ref'), `${map.path}.build_ref`, ref);
  if (read === undefined) return undefined;
  const child = new LoadContext(new YamlSource(read.file, read.text), dirname(read.file));
  const root = child.source.document.contents;
  const tree = root ? readTemplateTree(child, root, `${map.path}.build_ref`, true) : undefined;
  if (!root) child.source.report(undefined, `${map.path}.build_ref`, 'file is empty');
  ctx.source.issues.push(...child.source.issues);
  ctx.templates.push(...child.templates);
  // The file is read in the middle of the payloads: it sees every name declared so far.
  ctx.celOrigins.push(...child.celOrigins.map((o) => ({ ...o, declaredBefore: ctx.declarations.length })));
  return tree;
}

function readPayload(ctx: LoadContext, map: MapReader): PayloadSpec | undefined {
  const name = map.string('name', { required: true });
  if (name !== undefined) ctx.declare('payload', name, map.valueNode('name'), `${map.path}.name`);
  const when = readWhen(ctx, map);
  const hasBuild = map.has('build');
  if (hasBuild === map.has('build_ref')) {
    ctx.source.report(map.position, map.path, 'must have exactly one of build, build_ref');
    map.valueNode('build_ref');
  }
  let build: TemplateTree | undefined;
  if (hasBuild) {
    const node = map.valueNode('build');
    build = node && readTemplateTree(ctx, node, `${map.path}.build`, true);
  } else if (map.has('build_ref')) {
    build = readBuildRef(ctx, map);
  }
  map.finish();
  if (name === undefined || build === undefined) return undefined;
  return { name, build, ...(when && { when }) };
}

function readPostAction(ctx: LoadContext, map: MapReader): PostActionSpec | undefined {
  const name = map.string('name', { required: true });
  if (name !== undefined) ctx.declare('post_action', name, map.valueNode('name'), `${map.path}.name`);
  const when = readWhen(ctx, map);
  const callMap = map.map('api_call');
  const apiCall = callMap && readApiCall(ctx, callMap);
  const logMap = map.map('log');
  const log = logMap && readLog(ctx, logMap);
  if (!callMap && !logMap) ctx.source.report(map.position, map.path, 'must have api_call or log');
  map.finish();
  if (name === undefined) return undefined;
  return { name, ...(when && { when }), ...(apiCall && { apiCall }), ...(log && { log }) };
}

/**
 * `post: {payloads[], post_actions[]}`.
 * @see HyperFleet: hyperfleet-adapter internal/configloader/types.go "post".
 */
export function readPost(ctx: LoadContext, root: MapReader): PostSpec {
  const post = root.map('post');
  if (!post) return { payloads: [], postActions: [] };
  const payloads = post
    .list('payloads')
    .map((item) => itemMap(ctx.source, item))
    .map((m) => m && readPayload(ctx, m))
    .filter((p): p is PayloadSpec => p !== undefined);
  const postActions = post
    .list('post_actions')
    .map((item) => itemMap(ctx.source, item))
    .map((m) => m && readPostAction(ctx, m))
    .filter((p): p is PostActionSpec => p !== undefined);
  post.finish();
  return { payloads, postActions };
}
