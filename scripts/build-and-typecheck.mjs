#!/usr/bin/env node
/**
 * `npm test`'s first step: the build (dist/, which the tests run, then its
 * bundle: scripts/bundle.mjs) and the type check of everything else (tests,
 * scripts), side by side on two cores instead of one after the other. Fails
 * when either does.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const bundle = new URL('./bundle.mjs', import.meta.url).pathname;
const build = run([tsc, '-p', 'tsconfig.json']).then((code) => (code === 0 ? run([bundle]) : code));
const codes = await Promise.all([build, run([tsc, '-p', 'tsconfig.test.json'])]);
process.exitCode = codes.some((c) => c !== 0) ? 1 : 0;
