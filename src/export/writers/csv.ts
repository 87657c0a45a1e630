/**
 * `--format csv`: `DIR/TABLE/source=NAME/part-0.csv`, a header line then
 * one line per row (csv-text.ts), written as the slog streams.
 */
import { mkdirSync } from 'node:fs';
import { csvHeader, csvLineMaker } from '../csv-text.js';
import type { AnyTableDef } from '../schema.js';
import { TextFile } from './text-file.js';
import { partitionDir, type DatasetWriter, type SourceWriter } from './writer.js';

export function csvDataset(root: string): DatasetWriter {
  return {
    async source(source) {
      const files: TextFile[] = [];
      const writer: SourceWriter = {
        rows(table: AnyTableDef) {
          const dir = partitionDir(root, table, source);
          mkdirSync(dir, { recursive: true });
          const file = new TextFile(`${dir}/part-0.csv`);
          files.push(file);
          file.write(csvHeader(table));
          const line = csvLineMaker(table);
          return (row) => file.write(line(row));
        },
        afterBatch: () => undefined,
        async close() {
          for (const file of files) file.close();
        },
      };
      return writer;
    },
    finish: async () => undefined,
    abort: async () => undefined,
  };
}
