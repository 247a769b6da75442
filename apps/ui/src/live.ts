/**
 * Live updates from `GET /api/decom/v1/events/stream` (Server-Sent Events). Read with fetch rather than
 * `EventSource`, because `EventSource` cannot send the `Authorization` header; the parser below handles
 * the subset of the SSE format the engine writes (`id:`, `event:`, `data:` lines, `:` comments, blank-line
 * separated). Reconnects with `Last-Event-ID` after a drop, with a growing delay (1 s → 15 s). The stream
 * itself stays open as long as the engine keeps it, but its answer must start within `READ_TIMEOUT_MS`:
 * an engine that accepts the connection and says nothing counts as offline.
 */
import { DECOM, READ_TIMEOUT_MS, authHeaders } from './api';

export interface LiveEvent {
  readonly position: number;
  readonly type: string;
  readonly recorded_time: string;
  readonly caller?: string;
  readonly resource?: { id: string; kind?: string };
}

export type LiveState = 'connecting' | 'live' | 'offline';

export function subscribeLive(onEvent: (event: LiveEvent) => void, onState: (state: LiveState) => void): () => void {
  let stopped = false;
  let lastId: string | undefined;
  let controller = new AbortController();
  let delayMs = 1000;

  const run = async () => {
    while (!stopped) {
      onState('connecting');
      try {
        controller = new AbortController();
        const connecting = controller;
        const connectTimer = setTimeout(() => connecting.abort(), READ_TIMEOUT_MS);
        const response = await fetch(`${DECOM}/events/stream`, {
          headers: { ...authHeaders(), accept: 'text/event-stream', ...(lastId ? { 'last-event-id': lastId } : {}) },
          signal: controller.signal,
        }).finally(() => clearTimeout(connectTimer));
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        onState('live');
        delayMs = 1000;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let data = '';
            for (const line of block.split('\n')) {
              if (line.startsWith('id: ')) lastId = line.slice(4);
              else if (line.startsWith('data: ')) data += line.slice(6);
            }
            if (data) onEvent(JSON.parse(data) as LiveEvent);
          }
        }
      } catch {
        if (stopped) return;
      }
      onState('offline');
      await new Promise((r) => setTimeout(r, delayMs));
      delayMs = Math.min(delayMs * 2, 15_000);
    }
  };
  void run();
  return () => {
    stopped = true;
    controller.abort();
  };
}
