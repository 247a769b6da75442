/**
 * Preloaded (`node --import`) into every process the bench spawns with an IPC channel: answers
 * `{ probe: id, reset? }` with this process's `process.memoryUsage().rss` (bytes), CPU time, and the event-loop delay
 * (`perf_hooks.monitorEventLoopDelay`, 5 ms resolution) since the last reset: max, p99 and mean in ms.
 * It adds nothing else to the process (one 5 ms timer inside libuv, no JS on the loop between probes),
 * so the engine under test runs its shipped code. Scenario P6 (http-api.bench.ts) reads the max stall from here.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface ProbeAnswer {
  readonly probe: number;
  readonly rss: number;
  readonly heapUsed: number;
  /** `process.cpuUsage()` user + system since the process started, ms (a window's difference shows work done). */
  readonly cpuMs: number;
  readonly loopDelay: { readonly maxMs: number; readonly p99Ms: number; readonly meanMs: number; readonly samples: number };
  /** Counts a bench helper process registered with `setProbeCounters` (e.g. the Kubernetes server's requests). */
  readonly counters?: Readonly<Record<string, number>>;
}

let counters: (() => Record<string, number>) | undefined;

/** Lets a bench helper process (support/kube-server.ts) add its own counts to every probe answer. */
export function setProbeCounters(read: () => Record<string, number>): void {
  counters = read;
}

if (process.send) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  process.on('message', (message: { probe?: number; reset?: boolean }) => {
    if (typeof message?.probe !== 'number') return;
    const memory = process.memoryUsage();
    const answer: ProbeAnswer = {
      probe: message.probe,
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
      loopDelay: {
        maxMs: delay.max / 1e6,
        p99Ms: delay.percentile(99) / 1e6,
        meanMs: delay.count > 0 ? delay.mean / 1e6 : 0,
        samples: delay.count,
      },
      ...(counters ? { counters: counters() } : {}),
    };
    if (message.reset) delay.reset();
    process.send?.(answer);
  });
  // The channel must not keep a process alive that would otherwise exit (a CLI that fails to start).
  process.channel?.unref();
}
