import { InProcessJobQueue } from './in-process-job-queue.js';
import { describeJobQueueBehaviour } from './testing/job-queue.behaviour.js';

describeJobQueueBehaviour('in-process', async () => {
  const queue = new InProcessJobQueue();
  return { queue, secondWorker: () => queue, teardown: () => queue.close() };
});
