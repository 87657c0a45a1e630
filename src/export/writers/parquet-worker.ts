/**
 * The worker thread of writers/parquet.ts: loads DuckDB (a third of a
 * second of dlopen and setup, while the main thread starts reading the
 * slog) and converts the staging CSV files it is sent, one message each:
 * `{id, job}` in, `{id}` or `{id, error}` out.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { localConverter, type ConvertJob, type ConverterSettings } from './parquet-convert.js';

export interface ConvertRequest {
  id: number;
  job: ConvertJob;
}

export interface ConvertReply {
  id: number;
  error?: string;
}

const port = parentPort;
if (port) {
  const converter = localConverter(workerData as ConverterSettings);
  converter.warm();
  port.on('message', (request: ConvertRequest) => {
    converter.convert(request.job).then(
      () => port.postMessage({ id: request.id } satisfies ConvertReply),
      (err: unknown) => port.postMessage({ id: request.id, error: err instanceof Error ? err.message : String(err) } satisfies ConvertReply),
    );
  });
}
