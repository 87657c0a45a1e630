/**
 * `npm run fuzz`: the reading layer's properties (test/fuzz/properties.ts)
 * with many more runs than `npm test`'s, each round from a random seed
 * (printed), for some minutes; and slogs with a line of 100 MB read by
 * bin/slogulate, its memory sampled (test/fuzz/huge-lines.ts). Not in CI.
 *
 * A failing input (shrunk by fast-check) is written to
 * test/fuzz/regressions/ as a case of its own, its first line the note of
 * what was wrong, and its seed printed; `npm test` replays every case there
 * (test/fuzz/regressions.test.ts). The run goes on with the next round and
 * exits 1 at the end if anything failed.
 *
 * Options (after `--`): --minutes M (default 5); --only NAME[,NAME] (paths,
 * streaming, commands, gzip-cut, huge); --seed N to replay a round (one
 * round of each property chosen, from that seed), with --runs N, or --path P
 * to go straight to the failing input (both printed with a failure); --mb N
 * (the huge lines' size, default 100); --no-write (print failures only).
 *
 *   npm run fuzz -- --only paths --seed 123456 --runs 3000
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HUGE_COMMANDS, HUGE_KINDS, hugeProblem, memoryBound, runHuge } from '../test/fuzz/huge-lines.js';
import { PROPERTIES, runProperty } from '../test/fuzz/properties.js';
import { writeRegression } from '../test/fuzz/regressions.js';

// As in the tests (vitest.config.ts): entries throw when a consumer reads a field it did not ask for.
process.env.SLOGULATE_CHECK_READS ??= '1';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '5' },
    only: { type: 'string' },
    seed: { type: 'string' },
    runs: { type: 'string' },
    path: { type: 'string' },
    mb: { type: 'string', default: '100' },
    'no-write': { type: 'boolean', default: false },
  },
});

/** Runs per round: `npm test`'s runs of each, times some hundred. */
const RUNS: Record<string, number> = { paths: 3000, streaming: 400, commands: 25, 'gzip-cut': 6, huge: 1 };
const names = values.only ? values.only.split(',') : [...PROPERTIES.map((p) => p.name), 'huge'];
for (const n of names) if (!(n in RUNS)) throw new Error(`--only: no property ${n} (${Object.keys(RUNS).join(', ')})`);
const replay = values.seed !== undefined;
const deadline = Date.now() + Number(values.minutes) * 60_000;
const hugeBytes = Number(values.mb) * 1_000_000;
const dir = mkdtempSync(join(tmpdir(), 'slogulate-fuzz-run-'));
const failures: string[] = [];

const randomSeed = (): number => Math.floor(Math.random() * 2 ** 31);
const seconds = (t0: number): string => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

function fail(name: string, seed: number, problem: string, input: Parameters<typeof writeRegression>[0]['input'] | undefined, path?: string): void {
  const note = problem.replace(/\s+/g, ' ').slice(0, 300);
  console.log(`  FAILED ${name} seed ${seed}: ${problem}`);
  if (path) console.log(`  replay: npm run fuzz -- --only ${name} --seed ${seed} --path ${path}`);
  if (input !== undefined && !values['no-write']) {
    const file = writeRegression({ note, check: name as never, seed, found: `npm run fuzz, ${new Date().toISOString()}`, input });
    console.log(`  kept as ${file}`);
  }
  failures.push(`${name} seed ${seed}`);
}

/** One round of huge lines: a kind and a command chosen by the seed. */
async function hugeRound(seed: number): Promise<void> {
  const kind = HUGE_KINDS[seed % HUGE_KINDS.length] as (typeof HUGE_KINDS)[number];
  const args = HUGE_COMMANDS[Math.floor(seed / HUGE_KINDS.length) % HUGE_COMMANDS.length] as readonly string[];
  const t0 = Date.now();
  const r = await runHuge(kind, hugeBytes, args, dir);
  const bound = memoryBound(kind, args);
  const problem = hugeProblem(r, bound);
  const what = `huge seed ${seed}: a ${kind} line of ${values.mb} MB, slogulate ${args.join(' ')} -`;
  const memory = `peak RSS ${r.peakMb.toFixed(0)} MB (sampled ${r.sampledMb.toFixed(0)}; ${bound === undefined ? 'not bounded by design' : `bound ${bound}`})`;
  if (problem === undefined) console.log(`${what}: ok, exit ${r.status}, ${memory} (${seconds(t0)})`);
  // The case makes the huge line again, at 2 MB and every line streamed (the path of a 100 MB line): cut its size down to one that still fails.
  else fail('huge', seed, `a ${kind} line of ${values.mb} MB, slogulate ${args.join(' ')}: ${problem}`, { huge: { kind, size: 2_000_000, args: [...args], bigLineBytes: 0 } });
}

async function main(): Promise<void> {
  console.log(`npm run fuzz: ${names.join(', ')}; ${replay ? `replaying seed ${values.seed}` : `${values.minutes} minutes, random seeds`}; failures kept in test/fuzz/regressions/${values['no-write'] ? ' (not: --no-write)' : ''}`);
  let round = 0;
  do {
    for (const name of names) {
      if (!replay && Date.now() > deadline) break;
      const seed = replay ? Number(values.seed) : randomSeed();
      const runs = values.runs !== undefined ? Number(values.runs) : (RUNS[name] as number);
      if (name === 'huge') {
        await hugeRound(seed);
        continue;
      }
      const p = PROPERTIES.find((x) => x.name === name);
      if (p === undefined) continue;
      const t0 = Date.now();
      let r: Awaited<ReturnType<typeof runProperty>>;
      try {
        r = await runProperty(p, seed, runs, values.path);
      } catch (err) {
        fail(name, seed, `the property threw outside its check: ${(err as Error).stack ?? String(err)}`, undefined);
        continue;
      }
      if (r.failed) fail(name, seed, r.problem ?? 'failed', r.input, r.path);
      else console.log(`${name} seed ${seed}: ${r.runs} runs ok (${seconds(t0)})`);
    }
    round += 1;
  } while (!replay && Date.now() < deadline);
  rmSync(dir, { recursive: true, force: true });
  console.log(`${round} rounds; ${failures.length === 0 ? 'no failure' : `${failures.length} failed: ${failures.join('; ')}`}`);
  process.exitCode = failures.length === 0 ? 0 : 1;
}

await main();
