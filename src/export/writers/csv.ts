/**
 * `--format csv`: `DIR/TABLE/source=NAME/part-0.csv`, a header line then
 * one line per row (csv-text.ts), written as the slog streams.
 */
import { mkdirSync } from 'node:fs';
import { csvHeader, csvRowWriter } from '../csv-text.js';
import type { AnyTableDef } from '../schema.js';
import { TextFile } from './text-file.js';
import { partitionDir, type DatasetWriter, type SourceWriter } from './writer.js';

export function csvDataset(root: string): DatasetWriter {
  const open = new Set<TextFile>();
  return {
    async source(source) {
      const files: TextFile[] = [];
      const writer: SourceWriter = {
        rows(table: AnyTableDef) {
          const dir = partitionDir(root, table, source);
          mkdirSync(dir, { recursive: true });
          const file = new TextFile(`${dir}/part-0.csv`);
          files.push(file);
          open.add(file);
          file.text(csvHeader(table));
          const write = csvRowWriter(table);
          return (row) => write(row, file);
        },
        afterBatch: () => undefined,
        async close() {
          for (const file of files) {
            file.close();
            open.delete(file);
          }
        },
      };
      return writer;
    },
    finish: async () => undefined,
    async abort() {
      for (const file of open) {
        try {
          file.close();
        } catch {
          // gone already: the caller removes the folder
        }
      }
      open.clear();
    },
  };
}
