/**
 * The pipeline's layers import one way (docs/architecture.md): source (bytes,
 * lines) -> scan (entries) -> model -> render -> analyses -> report, export ->
 * run (the pass) -> cli (commander wiring), each only from its own folder and
 * the layers before it (report and export side by side: neither imports the
 * other; analyses/'s folders, one per command, are one layer), and no files
 * import each other, directly or round a longer loop.
 *
 * Imports are read with the TypeScript compiler's parser, every form of them:
 * `import ... from` and `export ... from` (either quote), side-effect
 * `import '...'`, type-only imports (`import type`, `typeof import('...')`),
 * dynamic `import()`, `require()` (also one made by `createRequire`, and its
 * `.resolve`) and `import x = require()`. An import names a file of src/, a
 * `node:` builtin, or a package of package.json's dependencies (a type-only
 * import may name a devDependency: it is gone at run time); anything else
 * (a file outside src/, a bare `fs`, a specifier that is not a string) fails.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const SRC = join(ROOT, 'src');

/** The layers in order; folders on one rank may not import each other. */
const RANKS: readonly (readonly string[])[] = [['source'], ['scan'], ['model'], ['render'], ['analyses'], ['report', 'export'], ['run'], ['cli']];

type ImportKind = 'static' | 'export' | 'side-effect' | 'type' | 'dynamic' | 'require';

interface Import {
  kind: ImportKind;
  /** Gone at run time: `import type`, `export type`, `import { type A }` alone, `typeof import()`. */
  typeOnly: boolean;
  /** The module named; undefined when it is not a string literal (it cannot be checked). */
  specifier: string | undefined;
  /** Where it is, as `file:line`, and its text. */
  at: string;
  text: string;
}

/**
 * Imports whose specifier is not a string, each said why. `cli/start.cts`
 * hands the bundle an import() of the packages it names (scripts/bundle.mjs):
 * the bundle has none of its own when run by node:vm.
 */
const UNCHECKED: ReadonlyArray<{ file: string; text: string; why: string }> = [
  { file: 'cli/start.cts', text: 'import(name)', why: "the bundle's import() of packages, handed to it by start.cts" },
];

function stringOf(node: ts.Node | undefined): string | undefined {
  return node !== undefined && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
}

/** `createRequire(...)`. */
const isCreateRequire = (node: ts.Node): boolean => ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'createRequire';

/** Every import of a file's text (`name`: its path for messages, and .cts/.ts for the parser). */
function importsOf(name: string, text: string): Import[] {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, name.endsWith('.cts') ? ts.ScriptKind.TS : undefined);
  // Names bound to a require: `require`, and variables set to createRequire(...).
  const requires = new Set(['require']);
  const findRequires = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && isCreateRequire(node.initializer)) requires.add(node.name.text);
    ts.forEachChild(node, findRequires);
  };
  findRequires(source);
  const isRequire = (callee: ts.Expression): boolean =>
    (ts.isIdentifier(callee) && requires.has(callee.text)) ||
    isCreateRequire(callee) ||
    (ts.isPropertyAccessExpression(callee) && callee.name.text === 'resolve' && (isRequire(callee.expression) as boolean));

  const found: Import[] = [];
  const add = (node: ts.Node, kind: ImportKind, typeOnly: boolean, specifier: ts.Node | undefined): void => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ kind, typeOnly, specifier: stringOf(specifier), at: `${name}:${line}`, text: node.getText(source).replace(/\s+/g, ' ') });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      // `import { type A, type B } from`: nothing of it is left at run time either.
      const allTypes = clause !== undefined && clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
      add(node, clause === undefined ? 'side-effect' : 'static', clause?.isTypeOnly === true || allTypes, node.moduleSpecifier);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined) {
      add(node, 'export', node.isTypeOnly, node.moduleSpecifier);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, 'require', node.isTypeOnly, node.moduleReference.expression);
    } else if (ts.isImportTypeNode(node)) {
      add(node, 'type', true, ts.isLiteralTypeNode(node.argument) ? node.argument.literal : undefined);
    } else if (ts.isCallExpression(node)) {
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node, 'dynamic', false, node.arguments[0]);
      else if (isRequire(node.expression)) add(node, 'require', false, node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(c|m)?ts$/.test(name) && !name.endsWith('.test.ts') ? [path] : [];
  });
}

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

/** `@scope/name/sub` -> `@scope/name`; `name/sub` -> `name`. */
const packageOf = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** A relative specifier's file, as a path under src/ (`.js` is its `.ts`); undefined outside src/. */
function targetOf(file: string, specifier: string): string | undefined {
  const path = resolve(dirname(file), specifier.replace(/\.js$/, '.ts').replace(/\.cjs$/, '.cts').replace(/\.mjs$/, '.mts'));
  return path.startsWith(SRC + sep) ? relative(SRC, path) : undefined;
}

interface Graph {
  /** file (under src/) -> the src files it imports. */
  edges: Map<string, Array<{ target: string; imp: Import }>>;
  /** Imports that name nothing allowed. */
  bad: string[];
  /** The UNCHECKED entries met. */
  unchecked: string[];
}

/** Each file's imports of other files of src/, and the imports that are not allowed at all. */
function importGraph(files: ReadonlyArray<{ path: string; text: string }>): Graph {
  const graph: Graph = { edges: new Map(), bad: [], unchecked: [] };
  for (const { path, text } of files) {
    const file = relative(SRC, path);
    const edges: Array<{ target: string; imp: Import }> = [];
    graph.edges.set(file, edges);
    for (const imp of importsOf(file, text)) {
      const s = imp.specifier;
      const why = ((): string | undefined => {
        if (s === undefined) {
          if (UNCHECKED.some((u) => u.file === file && u.text === imp.text)) {
            graph.unchecked.push(`${file}: ${imp.text}`);
            return undefined;
          }
          return 'its module is not a string: it cannot be checked';
        }
        if (s.startsWith('.') || s.startsWith('/')) {
          const target = targetOf(path, s);
          if (target === undefined) return 'names a file outside src/';
          if (!existsSync(join(SRC, target))) return `names ${target}, not a source file of src/`;
          edges.push({ target, imp });
          return undefined;
        }
        if (s.startsWith('node:')) return isBuiltin(s) ? undefined : 'not a builtin of Node.js';
        if (isBuiltin(s)) return `a builtin without node: (write node:${s})`;
        const pkg = packageOf(s);
        if (pkg in PACKAGE.dependencies) return undefined;
        if (imp.typeOnly && (pkg in PACKAGE.devDependencies || `@types/${pkg}` in PACKAGE.devDependencies)) return undefined;
        return `${pkg} is not among package.json's dependencies`;
      })();
      if (why !== undefined) graph.bad.push(`${imp.at}: ${imp.text}: ${why}`);
    }
  }
  return graph;
}

const folderOf = (file: string): string => file.split('/')[0] as string;
const rankOf = (file: string): number => RANKS.findIndex((rank) => rank.includes(folderOf(file)));

/** Imports against the layers: a file imports from its own folder or a layer before its own. */
function againstLayers(graph: Graph): string[] {
  const wrong: string[] = [];
  for (const [file, edges] of graph.edges) {
    for (const { target, imp } of edges) {
      if (folderOf(target) !== folderOf(file) && rankOf(target) >= rankOf(file)) wrong.push(`${imp.at}: ${imp.text}: ${folderOf(file)} imports ${target}`);
    }
  }
  return wrong;
}

/** Import loops, each as `a -> b -> a` (every kind of import counts). */
function importLoops(graph: Graph): string[] {
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
    for (const { target } of graph.edges.get(file) ?? []) visit(target);
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.edges.keys()) visit(file);
  return loops;
}

describe('the import reader', () => {
  // Every form, written as src/render/x.ts would hold it.
  const text = [
    `import { a } from "./double.js";`,
    `import { b } from './single.js';`,
    `import './side-effect.js';`,
    `import type { C } from '../model/type-only.js';`,
    `import { type D } from '../model/type-named.js';`,
    `export { e } from "../model/re-export.js";`,
    `export type { F } from '../model/re-export-type.js';`,
    `import g = require('../model/import-equals.js');`,
    `import { createRequire } from 'node:module';`,
    `const load = createRequire(import.meta.url);`,
    `const h = load('../model/made-require.js');`,
    `const i = require.resolve('../model/require-resolve.js');`,
    `const j = createRequire(import.meta.url)('../model/direct.js');`,
    `const k = (): Promise<unknown> => import('../cli/dynamic.js');`,
    `let l: typeof import('../model/import-type.js');`,
    `const m = require(\`../model/template.js\`);`,
    `const n = import(someName);`,
  ].join('\n');
  const found = importsOf('render/x.ts', text);

  it('finds each form, what kind it is, and whether it is type-only', () => {
    expect(found.map((f) => [f.kind, f.typeOnly, f.specifier])).toEqual([
      ['static', false, './double.js'],
      ['static', false, './single.js'],
      ['side-effect', false, './side-effect.js'],
      ['static', true, '../model/type-only.js'],
      ['static', true, '../model/type-named.js'],
      ['export', false, '../model/re-export.js'],
      ['export', true, '../model/re-export-type.js'],
      ['require', false, '../model/import-equals.js'],
      ['static', false, 'node:module'],
      ['require', false, '../model/made-require.js'],
      ['require', false, '../model/require-resolve.js'],
      ['require', false, '../model/direct.js'],
      ['dynamic', false, '../cli/dynamic.js'],
      ['type', true, '../model/import-type.js'],
      ['require', false, '../model/template.js'],
      ['dynamic', false, undefined],
    ]);
    expect(found[2]?.at).toBe('render/x.ts:3');
  });

  it('says why each bad import is bad', () => {
    const file = join(SRC, 'render', 'x.ts');
    const bad = importGraph([
      {
        path: file,
        text: [
          `import "../../test/helpers.js";`,
          `import { readFileSync } from 'fs';`,
          `import ts from 'typescript';`,
          `import type { Page } from 'playwright-core';`,
          `import chalk from 'chalk';`,
          `const x = import(someName);`,
          `import './no-such-file.js';`,
        ].join('\n'),
      },
    ]).bad;
    expect(bad).toEqual([
      'render/x.ts:1: import "../../test/helpers.js";: names a file outside src/',
      "render/x.ts:2: import { readFileSync } from 'fs';: a builtin without node: (write node:fs)",
      "render/x.ts:3: import ts from 'typescript';: typescript is not among package.json's dependencies",
      'render/x.ts:6: import(someName): its module is not a string: it cannot be checked',
      "render/x.ts:7: import './no-such-file.js';: names render/no-such-file.ts, not a source file of src/",
    ]);
  });
});

describe('layers', () => {
  const graph = importGraph(sourceFiles(SRC).map((path) => ({ path, text: readFileSync(path, 'utf8') })));

  it('reads the imports of every source file, of every kind', () => {
    expect(graph.edges.size).toBeGreaterThan(150);
    const kinds = new Set([...graph.edges.values()].flatMap((edges) => edges.map(({ imp }) => imp.kind)));
    // src/ has these today (cli/commands/index.ts loads each command with import()).
    expect([...kinds].sort()).toEqual(['dynamic', 'export', 'static']);
    expect(graph.edges.get('cli/commands/index.ts')?.filter(({ imp }) => imp.kind === 'dynamic').length).toBeGreaterThan(10);
  });

  it('every source file is in a layer', () => {
    for (const file of graph.edges.keys()) expect(rankOf(file), file).toBeGreaterThanOrEqual(0);
  });

  it('every import names a source file of src/, a node: builtin or a dependency', () => {
    expect(graph.bad).toEqual([]);
    // Each allowed exception is still there (it cannot hide another).
    expect(graph.unchecked.sort()).toEqual(UNCHECKED.map((u) => `${u.file}: ${u.text}`).sort());
  });

  it('imports run one way: from the same folder, or a layer before', () => {
    expect(againstLayers(graph)).toEqual([]);
  });

  it('no import loops', () => {
    expect(importLoops(graph)).toEqual([]);
  });
});
