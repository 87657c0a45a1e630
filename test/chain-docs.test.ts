/**
 * docs/chain.md: every `$ slogulate ...` example runs as written, and prints
 * what the doc shows under it. Each ```sh block starts at the repository's
 * root; `$ cd DIR` moves within it. A line `# exit N` at a command's end is
 * the status the doc promises (0 otherwise). Commands run in process; one
 * with a pipe runs in a shell, with bin/slogulate as `slogulate`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, expectSameText, ROOT } from './helpers.js';
import { runMain } from './run-main.js';

interface Example {
  cwd: string;
  command: string;
  status: number;
  /** The output the doc shows, if it shows any. */
  output: string | undefined;
}

function examples(doc: string): Example[] {
  const out: Example[] = [];
  for (const block of doc.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    let cwd = ROOT;
    let current: (Example & { lines: string[] }) | undefined;
    const finish = (): void => {
      if (!current) return;
      out.push({ cwd: current.cwd, command: current.command, status: current.status, output: current.lines.length ? `${current.lines.join('\n')}\n` : undefined });
      current = undefined;
    };
    for (const line of (block[1] as string).split('\n').slice(0, -1)) {
      const cd = /^\$ cd (\S+)$/.exec(line);
      if (cd) {
        finish();
        cwd = resolve(cwd, cd[1] as string);
        continue;
      }
      const cmd = /^\$ (.*)$/.exec(line);
      if (cmd) {
        finish();
        const [command, status] = (cmd[1] as string).split(/\s+# exit /);
        current = { cwd, command: command as string, status: status === undefined ? 0 : Number(status), output: undefined, lines: [] };
        continue;
      }
      current?.lines.push(line);
    }
    finish();
  }
  return out;
}

const bin = mkdtempSync(join(tmpdir(), 'slogulate-docs-bin-'));
symlinkSync(BIN, join(bin, 'slogulate'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));

async function run(example: Example): Promise<{ status: number | null; stdout: string; stderr: string }> {
  if (example.command.includes('|')) {
    const r = spawnSync('sh', ['-c', example.command], {
      cwd: example.cwd,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, NO_COLOR: '1', FORCE_COLOR: undefined },
      encoding: 'utf8',
    });
    return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  }
  const words = [...example.command.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? (m[2] as string));
  expect(words[0]).toBe('slogulate');
  const here = process.cwd();
  process.chdir(example.cwd);
  try {
    return await runMain(words.slice(1));
  } finally {
    process.chdir(here);
  }
}

describe('docs/chain.md', () => {
  const list = examples(readFileSync(join(ROOT, 'docs', 'chain.md'), 'utf8'));

  it('has examples of every command it documents', () => {
    const commands = list.map((e) => e.command.split(/\s+/)[1]);
    for (const c of ['blocks', 'runs', 'top', 'stats', 'compare']) expect(commands).toContain(c);
    expect(list.filter((e) => e.output !== undefined).length).toBeGreaterThanOrEqual(8);
  });

  it('runs every example as written, with the output the doc shows', async () => {
    for (const example of list) {
      const r = await run(example);
      expect(r.status, example.command).toBe(example.status);
      expect(r.stderr, example.command).toBe('');
      if (example.output !== undefined) expectSameText(r.stdout, example.output, example.command);
    }
  });
});
