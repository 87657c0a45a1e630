/**
 * The converter of writers/parquet.ts on a worker thread (parquet-worker.ts),
 * where the compiled worker exists; else (the TypeScript sources, in tests)
 * on this thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { localConverter, type ConvertJob, type Converter, type ConverterSettings } from './parquet-convert.js';
import type { ConvertReply, ConvertRequest } from './parquet-worker.js';

export function threadConverter(settings: ConverterSettings): Converter {
  const url = new URL('./parquet-worker.js', import.meta.url);
  if (!existsSync(fileURLToPath(url))) return localConverter(settings);
  const worker = new Worker(url, { workerData: settings });
  const waiting = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  let nextId = 1;
  let failure: Error | undefined;
  /** The thread's end, once it was asked to end (close or stop). */
  let ended: Promise<void> | undefined;
  let stopSent = false;
  const failAll = (err: Error): void => {
    failure ??= err;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  worker.on('message', (reply: ConvertReply) => {
    const w = waiting.get(reply.id);
    if (!w) return;
    waiting.delete(reply.id);
    if (reply.error === undefined) w.resolve();
    else w.reject(new Error(reply.error));
  });
  worker.on('error', failAll);
  let exited = false;
  worker.on('exit', (code) => {
    exited = true;
    if (waiting.size) failAll(new Error(`the Parquet worker stopped (exit ${code})`));
  });
  const end = (): Promise<void> => (ended ??= exited ? Promise.resolve() : new Promise<void>((resolve) => worker.once('exit', () => resolve())));
  return {
    warm: () => undefined,
    convert(job: ConvertJob) {
      if (failure) return Promise.reject(failure);
      if (exited) return Promise.reject(new Error('the Parquet worker stopped'));
      const id = nextId;
      nextId += 1;
      return new Promise<void>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, job } satisfies ConvertRequest);
      });
    },
    async close() {
      if (ended) return ended;
      if (exited) return;
      // The worker closes DuckDB when its jobs are done, then ends.
      const done = end();
      worker.postMessage({ close: true } satisfies ConvertRequest);
      return done;
    },
    async stop() {
      if (exited) return;
      // Even after close: the running job is interrupted instead of finished.
      const done = end();
      if (!stopSent) {
        stopSent = true;
        worker.postMessage({ stop: true } satisfies ConvertRequest);
      }
      return done;
    },
  };
}
