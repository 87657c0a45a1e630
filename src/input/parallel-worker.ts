/** A parallel-render worker thread: renders the chunks it is sent (parallel-chunk.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { ChunkRenderer } from './parallel-chunk.js';
import type { ChunkRequest, WorkerReply, WorkerSetup } from './parallel-protocol.js';

const port = parentPort;
if (port) {
  const renderer = new ChunkRenderer(workerData as WorkerSetup);
  port.on('message', (request: ChunkRequest) => {
    let reply: WorkerReply;
    try {
      reply = { kind: 'result', result: renderer.render(request) };
    } catch (err) {
      reply = { kind: 'error', seq: request.seq, message: (err as Error)?.message ?? String(err) };
      port.postMessage(reply);
      return;
    }
    port.postMessage(reply, [reply.result.bytes.buffer as ArrayBuffer]);
  });
}
