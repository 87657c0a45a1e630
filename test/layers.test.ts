/**
 * The pipeline's layers import one way (docs/architecture.md): source (bytes,
 * lines) -> scan (entries) -> model -> render -> analyses -> report, export -> run (the pass) ->
 * cli (commander wiring), each only from the layers before it, and no files
 * import each other, directly or round a longer loop.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const SRC = join(ROOT, 'src');
const LAYERS = ['source', 'scan', 'model', 'render', 'analyses', 'report', 'export', 'run', 'cli'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return (name.endsWith('.ts') || name.endsWith('.cts')) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

const IMPORT = /^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gm;

/** Each file's imports of other files of the project (as paths relative to src/). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => relative(SRC, resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts'))));
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

const layerOf = (file: string): number => LAYERS.indexOf(file.split('/')[0] as string);

describe('layers', () => {
  const graph = importGraph();

  it('every source file is in a layer', () => {
    for (const file of graph.keys()) expect(layerOf(file), file).toBeGreaterThanOrEqual(0);
  });

  it('imports run one way: from a layer before, or the same layer', () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) if (layerOf(target) > layerOf(file)) wrong.push(`${file} imports ${target}`);
    }
    expect(wrong).toEqual([]);
  });

  it('no import loops', () => {
    const loops: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (file: string): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        loops.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      path.push(file);
      for (const target of graph.get(file) ?? []) visit(target);
      path.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file);
    expect(loops).toEqual([]);
  });
});
