import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listAdapterFiles } from './adapter-files.js';

describe('listAdapterFiles: Decom flat layout and HyperFleet folder layout', () => {
  it('pairs <name>.yaml with <name>.adapter.yaml, and <folder>/adapter-task-config.yaml with adapter-config.yaml', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'decom-adapter-files-'));
    for (const f of ['flat.yaml', 'flat.adapter.yaml', 'alone.yaml', 'orphan.adapter.yaml']) writeFileSync(join(dir, f), '');
    mkdirSync(join(dir, 'cl-namespace'));
    writeFileSync(join(dir, 'cl-namespace', 'adapter-task-config.yaml'), '');
    writeFileSync(join(dir, 'cl-namespace', 'adapter-config.yaml'), '');
    writeFileSync(join(dir, 'cl-namespace', 'namespace.yaml'), ''); // a referenced manifest, not an adapter
    mkdirSync(join(dir, 'np-task-only'));
    writeFileSync(join(dir, 'np-task-only', 'adapter-task-config.yml'), '');
    mkdirSync(join(dir, 'examples'));
    writeFileSync(join(dir, 'examples', 'something.yaml'), '');

    const { adapters, orphans } = await listAdapterFiles(dir);
    expect(adapters).toEqual([
      { name: 'alone', taskFile: join(dir, 'alone.yaml') },
      { name: 'flat', taskFile: join(dir, 'flat.yaml'), deploymentFile: join(dir, 'flat.adapter.yaml') },
      {
        name: 'cl-namespace',
        taskFile: join(dir, 'cl-namespace', 'adapter-task-config.yaml'),
        deploymentFile: join(dir, 'cl-namespace', 'adapter-config.yaml'),
      },
      { name: 'np-task-only', taskFile: join(dir, 'np-task-only', 'adapter-task-config.yml') },
    ]);
    expect(orphans).toEqual([join(dir, 'orphan.adapter.yaml')]);
  });

  it('recognises a deployment config under another name by its content, in both layouts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'decom-adapter-files-'));
    const DEPLOY = (name: string) => `adapter:\n  name: ${name}\nclients:\n  hyperfleet_api:\n    base_url: http://api\n`;
    writeFileSync(join(dir, 'validation.yaml'), 'params: []\n');
    writeFileSync(join(dir, 'validation-deployment.yaml'), DEPLOY('validation'));
    writeFileSync(join(dir, 'lonely-deploy.yaml'), DEPLOY('nobody'));
    writeFileSync(join(dir, 'wrapped.yaml'), 'apiVersion: hyperfleet.redhat.com/v1alpha1\nkind: AdapterConfig\nspec: {}\n');
    mkdirSync(join(dir, 'cl-job'));
    writeFileSync(join(dir, 'cl-job', 'adapter-task-config.yaml'), 'resources: []\n');
    writeFileSync(join(dir, 'cl-job', 'cl-job-config.yaml'), DEPLOY('cl-job'));
    writeFileSync(join(dir, 'cl-job', 'adapter-task-resource-job.yaml'), 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: x}\n');

    const { adapters, orphans } = await listAdapterFiles(dir);
    expect(adapters).toEqual([
      { name: 'validation', taskFile: join(dir, 'validation.yaml'), deploymentFile: join(dir, 'validation-deployment.yaml') },
      {
        name: 'cl-job',
        taskFile: join(dir, 'cl-job', 'adapter-task-config.yaml'),
        deploymentFile: join(dir, 'cl-job', 'cl-job-config.yaml'),
      },
    ]);
    expect(orphans).toEqual([join(dir, 'lonely-deploy.yaml'), join(dir, 'wrapped.yaml')]);
  });
});
