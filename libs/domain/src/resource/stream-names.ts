/**
 * A resource tree lives in one stream named after its top-level resource: `<kind in lower case>-<id>`
 * (`cluster-0190…`). One stream per tree makes a cascade DELETE or a subtree force delete a single atomic
 * append on every backend, EventStoreDB included (docs/adr/0001-one-stream-per-resource-tree.md).
 */
export function treeStreamName(rootKind: string, rootId: string): string {
  return `${rootKind.toLowerCase()}-${rootId}`;
}

/** The category prefix of a tree stream, e.g. `cluster` (EventStoreDB's `$ce-cluster`). */
export function streamCategory(stream: string): string {
  const dash = stream.indexOf('-');
  return dash < 0 ? stream : stream.slice(0, dash);
}
