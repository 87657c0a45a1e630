/**
 * docs/export.md: every `$` example runs from the repository's root, as
 * written, in the page's order (in a copy of the repository's layout, its
 * `/tmp/` a folder of its own: test/doc-sandbox.ts), and prints what the
 * page shows under it (test/doc-examples.ts reads them); nothing is written
 * in the repository; the page's column tables are the tables' own
 * definitions (src/export/tables/).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLES } from '../src/export/tables/index.js';
import { docExamples, shownDifference } from './doc-examples.js';
import { DocSandbox } from './doc-sandbox.js';
import { ROOT } from './helpers.js';

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

let sandbox: DocSandbox;
beforeAll(() => {
  sandbox = new DocSandbox();
});
afterAll(() => sandbox.remove());

describe('docs/export.md', () => {
  it('documents every column of every table', () => {
    expect(DOC).toContain(columnTables());
  });

  it('every $ example runs from the repository\'s root and prints what the page shows', async () => {
    const list = docExamples(DOC);
    expect(list.filter((e) => e.command.startsWith('slogulate ')).length).toBeGreaterThanOrEqual(13);
    for (const example of list) {
      const where = `docs/export.md:${example.line}: ${example.command}`;
      expect(example.cwd, where).toBe('.');
      const r = await sandbox.run(example, 'docs/export.md');
      expect(r.stderr, where).toBe('');
      expect(r.status, where).toBe(example.status);
      // A command the page shows no output for prints none.
      const difference = shownDifference(r.stdout, example.shown ?? []);
      if (difference !== undefined) throw new Error(`${where}\n${difference}`);
    }
    expect(sandbox.takeAdded(), 'files the examples wrote in the repository (write them to /tmp/)').toEqual([]);
  });
});
