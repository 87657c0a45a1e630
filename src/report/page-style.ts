/** The report page's own styles (uPlot's come from its package). */
export const PAGE_STYLE = String.raw`
:root { --fg: #1d2330; --muted: #5b6475; --line: #d9dde5; --bg: #ffffff; --soft: #f4f6f9; --accent: #2457c5; --bad: #b3261e; --good: #1e7a3c; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 14px 24px 10px; border-bottom: 1px solid var(--line); background: var(--soft); }
header h1 { margin: 0; font-size: 18px; font-weight: 600; word-break: break-all; }
header p { margin: 4px 0 0; color: var(--muted); }
main { padding: 8px 24px 40px; max-width: 1500px; }
section { margin-top: 22px; }
h2 { font-size: 16px; margin: 0 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 14px; margin: 14px 0 6px; }
h4 { font-size: 13px; margin: 14px 0 4px; }
.hint, .note { color: var(--muted); font-size: 12px; margin: 4px 0; }
.sides { display: flex; gap: 24px; flex-wrap: wrap; }
.sides > div { flex: 1 1 420px; min-width: 0; }
table { border-collapse: collapse; font-size: 12.5px; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 8px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
th { background: var(--soft); font-weight: 600; position: sticky; top: 0; }
td.r, th.r { text-align: right; }
table.summary td:first-child { color: var(--muted); }
table.summary td { white-space: normal; word-break: break-word; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th[aria-sort="ascending"]::after { content: " \25B2"; font-size: 9px; }
table.sortable th[aria-sort="descending"]::after { content: " \25BC"; font-size: 9px; }
tfoot td { font-weight: 600; background: var(--soft); }
.scroll { max-height: 420px; overflow: auto; border: 1px solid var(--line); display: inline-block; max-width: 100%; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 12px 20px; }
.chart { min-width: 0; }
.chart .u-title { font-size: 13px; font-weight: 600; }
.chart .u-legend { font-size: 12px; text-align: left; }
.tabs { display: flex; flex-wrap: wrap; gap: 4px; margin: 6px 0; }
.tabs button { font: inherit; font-size: 12px; padding: 3px 9px; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); cursor: pointer; }
.tabs button[aria-selected="true"] { background: var(--accent); border-color: var(--accent); color: #fff; }
table.top tbody tr { cursor: pointer; }
table.top tbody tr:hover { background: #eef3ff; }
table.top tbody tr.selected { background: #dce7ff; }
pre.crank-text { background: #0f1724; color: #dfe6f3; padding: 10px 12px; border-radius: 4px; font-size: 12px; line-height: 1.4; max-height: 480px; overflow: auto; white-space: pre; }
.verdict { font-weight: 600; padding: 6px 10px; border-radius: 4px; display: inline-block; }
.verdict.ok { background: #e3f4e8; color: var(--good); }
.verdict.exceeded { background: #fbe4e2; color: var(--bad); }
`;
