/**
 * The bench's shell loop (scripts/bench/measure.ts shellLoop), which times
 * the seek table's commands from one bash process: each step's key, its
 * environment and what runs before it reach the command, and its CPU time
 * is the command's own (read from `times` in the subshell that ran it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { shellLoop } from '../scripts/bench/measure.js';

const spawnText = (argv: string[], env: NodeJS.ProcessEnv): { status: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(argv[0] as string, argv.slice(1), { env, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('the bench shell loop', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slogulate-shell-loop-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('times each step in order, with its environment and what runs before it', () => {
    const marker = join(dir, "it's here");
    // A busy loop of 0.2 s (Date.now makes no system call: all of it CPU); a command that fails unless the step's variable and the marker its `before` made are there.
    const busy = [process.execPath, '-e', 'const end = Date.now() + 200; while (Date.now() < end);'];
    const check = [process.execPath, '-e', `process.exit(process.env.STEP_VAR === "a b'c" && require('fs').existsSync(${JSON.stringify(marker)}) ? 0 : 3)`];
    const out = shellLoop(
      [
        { key: 'busy', argv: busy },
        { key: 'checked', argv: check, env: { STEP_VAR: "a b'c" }, before: `touch '${marker.replaceAll("'", "'\\''")}'` },
        { key: 'busy again', argv: busy },
      ],
      spawnText,
    );
    expect(out.map((m) => m.key)).toEqual(['busy', 'checked', 'busy again']);
    expect(existsSync(marker)).toBe(true);
    for (const m of [out[0], out[2]]) {
      // The command's CPU (its busy 0.2 s, less what other load took of it), not the loop's so far: the second is not the sum of both.
      expect(m?.cpu).toBeGreaterThan(0.1);
      expect(m?.cpu).toBeLessThan(0.38);
      expect(m?.wall).toBeGreaterThan(0.15);
    }
  });

  it('throws when a command fails, naming the step', () => {
    expect(() => shellLoop([{ key: 'fails', argv: [process.execPath, '-e', 'process.exit(4)'] }], spawnText)).toThrow(/step 0 failed/);
  });
});
