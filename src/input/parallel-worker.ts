/** A parallel-render worker thread: renders the chunks it is sent (parallel-chunk.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { HeapGovernor } from './heap-governor.js';
import { ChunkRenderer } from './parallel-chunk.js';
import type { ChunkRequest, WorkerReply, WorkerSetup } from './parallel-protocol.js';

const port = parentPort;
if (port) {
  const setup = workerData as WorkerSetup;
  const renderer = new ChunkRenderer(setup);
  const governor = setup.heap ? new HeapGovernor(setup.heap) : undefined;
  port.on('message', (request: ChunkRequest) => {
    let reply: WorkerReply;
    try {
      reply = { kind: 'result', result: renderer.render(request) };
    } catch (err) {
      reply = { kind: 'error', seq: request.seq, message: (err as Error)?.message ?? String(err) };
      port.postMessage(reply);
      return;
    }
    const bytes = reply.result.bytes.byteLength;
    port.postMessage(reply, [reply.result.bytes.buffer as ArrayBuffer]);
    governor?.tick(bytes);
  });
}
