/**
 * The worker thread of writers/parquet.ts: loads DuckDB (a third of a
 * second of dlopen and setup, while the main thread starts reading the
 * slog) and converts the staging CSV files it is sent, one message each:
 * `{id, job}` in, `{id}` or `{id, error}` out. `{close: true}` closes
 * DuckDB once the jobs sent before it are done, and ends the thread;
 * `{stop: true}` (a signal) interrupts the running job, refuses the next
 * ones, closes DuckDB once it has loaded, and ends the thread. Terminating
 * the thread while DuckDB works (process.exit does) would abort the
 * process: the main thread waits for this one to end before it exits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { localConverter, type ConvertJob, type ConverterSettings } from './parquet-convert.js';

export type ConvertRequest = { id: number; job: ConvertJob } | { close: true } | { stop: true };

export interface ConvertReply {
  id: number;
  error?: string;
}

const port = parentPort;
if (port) {
  const converter = localConverter(workerData as ConverterSettings);
  converter.warm();
  const running = new Set<Promise<void>>();
  port.on('message', (request: ConvertRequest) => {
    if ('stop' in request) {
      void converter.stop().finally(() => port.close());
      return;
    }
    if ('close' in request) {
      void Promise.allSettled([...running])
        .then(() => converter.close())
        .finally(() => port.close());
      return;
    }
    const job = converter.convert(request.job).then(
      () => port.postMessage({ id: request.id } satisfies ConvertReply),
      (err: unknown) => port.postMessage({ id: request.id, error: err instanceof Error ? err.message : String(err) } satisfies ConvertReply),
    );
    running.add(job);
    void job.finally(() => running.delete(job));
  });
}
