/**
 * docs/export.md: every `$ slogulate ...` line runs (in process, in a
 * folder holding the sample slogs, in the page's order) and prints what the
 * page shows under it (test/doc-examples.ts reads them); the page's column
 * tables are the tables' own definitions (src/export/tables/).
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLES } from '../src/export/tables/index.js';
import { docExamples, shellWords, shownDifference } from './doc-examples.js';
import { ROOT, SLOGS } from './helpers.js';
import { runInProcess } from './run-main.js';

const DOC = readFileSync(join(ROOT, 'docs', 'export.md'), 'utf8');

const SQLITE = { BIGINT: 'INTEGER', DOUBLE: 'REAL', VARCHAR: 'TEXT', BOOLEAN: 'INTEGER (0/1)' } as const;

/** The markdown of each table's columns, as the page must hold it. */
function columnTables(): string {
  return TABLES.map((t) => {
    const lines = [
      `### \`${t.name}\` (SQLite: \`${t.sqliteName}\`)`,
      '',
      `${t.doc.charAt(0).toUpperCase()}${t.doc.slice(1)}.`,
      '',
      '| column | type (Parquet / SQLite) | null | what it holds | mezzanine |',
      '|---|---|---|---|---|',
    ];
    for (const c of t.columns) {
      const mezzanine = c.mezzanine
        ? c.mezzanine
            .split(', ')
            .map((m) => m.replace(/^([\w.]+)(.*)$/, '`$1`$2'))
            .join(', ')
        : '';
      lines.push(`| \`${c.name}\` | ${c.type} / ${SQLITE[c.type]} | ${c.nullable ? 'yes' : 'no'} | ${c.doc.replaceAll('|', '\\|')} | ${mezzanine} |`);
    }
    return lines.join('\n');
  }).join('\n\n');
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'slogulate-docs-'));
  for (const name of readdirSync(SLOGS)) copyFileSync(join(SLOGS, name), join(dir, name));
  copyFileSync(join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-bot.slog'), join(dir, 'chain-bot.slog'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('docs/export.md', () => {
  it('documents every column of every table', () => {
    expect(DOC).toContain(columnTables());
  });

  it('every $ slogulate example runs and prints what the page shows', async () => {
    const list = docExamples(DOC).filter((e) => e.command.startsWith('slogulate '));
    expect(list.length).toBeGreaterThanOrEqual(12);
    for (const { command, shown } of list) {
      const r = await runInProcess(shellWords(command).slice(1), { cwd: dir });
      expect(r.stderr, command).toBe('');
      expect(r.status, command).toBe(0);
      // A command the page shows no output for prints none.
      const difference = shownDifference(r.stdout, shown ?? []);
      if (difference !== undefined) throw new Error(`${command}\n${difference}`);
    }
  });
});
