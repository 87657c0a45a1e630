/**
 * The report as one HTML file that opens from disk with no network: uPlot
 * (read from its npm package's dist folder at run time), the page's styles
 * and script, and the report's data (JSON), all inline.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';
import type { ReportData } from './report-data.js';

const require = createRequire(import.meta.url);

export interface ChartLibrary {
  script: string;
  style: string;
}

/** uPlot's browser build and its styles, from node_modules. */
export function chartLibrary(): ChartLibrary {
  return {
    script: readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8'),
    style: readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8'),
  };
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** Inline script text cannot hold `</script`; JSON in a script cannot hold `<` unescaped safely. */
function inlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1');
}
function inlineJson(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function reportHtml(data: ReportData, library: ChartLibrary = chartLibrary()): string {
  const title = escapeHtml(data.title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="slogulate report">
<title>${title}</title>
<style>${library.style}</style>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header><h1 id="title">${title}</h1><p>SwingSet slog report by slogulate: what was read, the run over time, the costliest cranks, where the time went, and (when asked) what grows.</p></header>
<main>
<section id="summary"><h2>What was read</h2><div id="summary-body" class="sides"></div></section>
<section id="charts"><h2>Over the run</h2><p id="charts-note" class="hint"></p><div id="charts-body" class="charts"></div></section>
<section id="compare"><h2>Comparison (compare)</h2><div id="compare-body"></div></section>
<section id="growth"><h2>What grows (growth)</h2><div id="growth-charts" class="charts"></div><div id="growth-body" class="sides"></div></section>
<section id="top"><h2>Top cranks (top)</h2><div id="top-body"></div></section>
<section id="tables"><h2>Where the time went (stats)</h2><div id="tables-body" class="sides"></div></section>
</main>
<script type="application/json" id="slog-report-data">${inlineJson(data)}</script>
<script>${inlineScript(library.script)}</script>
<script>${inlineScript(PAGE_SCRIPT)}</script>
</body>
</html>
`;
}
