import { schemaTables } from './schema-tables.js';

describe('schemaTables', () => {
  it('names the tables of CREATE TABLE statements, in order, and ignores other statements', () => {
    expect(
      schemaTables([
        'CREATE TABLE IF NOT EXISTS clusters (id TEXT PRIMARY KEY)',
        '  create table nodepools(id TEXT)',
        'CREATE INDEX IF NOT EXISTS nodepools_cluster ON nodepools (cluster_id)',
        'CREATE TABLE IF NOT EXISTS "Audit ""Log""" (id TEXT)',
        'CREATE TABLE IF NOT EXISTS app.deletions (id TEXT)',
      ]),
    ).toEqual(['clusters', 'nodepools', '"Audit ""Log"""', 'app.deletions']);
  });
});
