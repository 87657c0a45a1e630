/**
 * The report page's script (plain browser JavaScript, inlined after uPlot):
 * reads the report's JSON (report-data.ts) from the page and draws it. No
 * framework, no network.
 *
 * For tests and for people poking at a report, it leaves on
 * `window.slogReport`: `ready` (true once everything is drawn), `errors`,
 * `charts`, one per chart: its id, title, `note` (drawn under it), `stacked` (crank time by part), points (x values given to
 * uPlot), lines, drawnSeries (uPlot's series: x, each line, and its
 * minimum and maximum when a point covers several buckets), and `draws`
 * (how many times uPlot drew it), `yMax` (the top of its y axis as drawn), `xRange` (its x axis's as drawn); and `zoom()`,
 * each chart's x range shown (the charts that share the run's x axis; a
 * chart with its own, the growth chart, is in `charts` with its `axis`).
 *
 * Written without template literals (this is one).
 */
export const PAGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var report = (window.slogReport = { ready: false, errors: [], charts: [] });
  /** Each chart's x range shown ([min, max]): zooming one zooms all. */
  report.zoom = function () { return plots.map(function (u) { return [u.scales.x.min, u.scales.x.max]; }); };
  window.addEventListener('error', function (e) { report.errors.push(String(e.message)); });
  var model = JSON.parse(document.getElementById('slog-report-data').textContent);
  var compare = model.sides.length > 1;
  var COLORS = ['#2457c5', '#d1495b', '#2a9d4b', '#e08a00', '#7b4fc4', '#00838f', '#8d5a3b', '#c2185b'];

  function h(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === undefined || v === null) return;
        if (k === 'text') e.textContent = v;
        else if (k === 'class') e.className = v;
        else e.setAttribute(k, v);
      });
    }
    (kids || []).forEach(function (c) {
      if (c !== null && c !== undefined) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return e;
  }
  function $(id) { return document.getElementById(id); }
  function sideTitle(side) { return side.role === 'slog' ? side.files.join(' ') : side.role + ': ' + side.files.join(' '); }

  // ---- numbers ----
  function scaled(v, base, units, digits) {
    var i = 0;
    while (Math.abs(v) >= base && i < units.length - 1) { v /= base; i += 1; }
    return (i ? v.toFixed(digits) : String(Math.round(v * 100) / 100)) + units[i];
  }
  function valueText(unit, v) {
    if (v === null || v === undefined) return '-';
    if (unit === 'bytes') return scaled(v, 1024, [' B', ' KiB', ' MiB', ' GiB', ' TiB'], 2);
    if (unit === 'ms') return (v < 10 ? v.toFixed(3) : v.toFixed(1)) + ' ms';
    if (unit === 'computrons') return scaled(v, 1000, ['', 'k', 'M', 'G', 'T'], 2);
    return String(Math.round(v * 100) / 100);
  }
  function tickText(unit, v) {
    if (v === null || v === undefined) return '';
    if (unit === 'bytes') return scaled(v, 1024, [' B', ' K', ' M', ' G', ' T'], 1);
    if (unit === 'ms') return String(Math.round(v * 1000) / 1000);
    return scaled(v, 1000, ['', 'k', 'M', 'G', 'T'], 1);
  }
  function alpha(hex, a) {
    var n = parseInt(hex.slice(1), 16);
    return 'rgba(' + (n >> 16) + ',' + ((n >> 8) & 255) + ',' + (n & 255) + ',' + a + ')';
  }

  // ---- tables ----
  /** A cell's number, in its unit's smallest (stats prints readable times and sizes: 1.02 s, 36.21 ms, 902 \u00b5s, 14.1 MB). */
  var UNIT_SCALE = { '\u00b5s': 1, ms: 1e3, s: 1e6, kB: 1e3, MB: 1e6 };
  function cellNumber(text) {
    var m = /^([+-]?\d+(?:\.\d+)?)(?: ?(\u00b5s|ms|s|kB|MB)(?![A-Za-z]))?/.exec(text);
    return m ? parseFloat(m[1]) * (m[2] ? UNIT_SCALE[m[2]] : 1) : NaN;
  }
  function sortBy(table, col, th) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var texts = rows.map(function (r) { return r.cells[col] ? r.cells[col].textContent : ''; });
    var numeric = texts.every(function (t) { return t === '' || !isNaN(cellNumber(t)); });
    var was = th.getAttribute('aria-sort');
    var dir = was ? (was === 'descending' ? 1 : -1) : numeric ? -1 : 1;
    var keyed = rows.map(function (r, i) { return { r: r, t: texts[i], i: i }; });
    keyed.sort(function (a, b) {
      var c = numeric ? (cellNumber(a.t) || 0) - (cellNumber(b.t) || 0) : a.t.localeCompare(b.t, undefined, { numeric: true });
      return c * dir || a.i - b.i;
    });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) { c.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir < 0 ? 'descending' : 'ascending');
    keyed.forEach(function (k) { body.appendChild(k.r); });
  }
  function makeSortable(table) {
    table.classList.add('sortable');
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.title = 'sort by ' + th.textContent;
      th.addEventListener('click', function () { sortBy(table, col, th); });
    });
  }
  function tableOf(t) {
    var right = t.columns.map(function (c) { return c.align === 'right'; });
    var cls = function (i) { return right[i] ? 'r' : undefined; };
    var head = h('thead', null, [h('tr', null, t.columns.map(function (c, i) { return h('th', { class: cls(i), text: c.header }); }))]);
    var rowEl = function (r) { return h('tr', null, t.columns.map(function (c, i) { return h('td', { class: cls(i), text: r[i] === undefined ? '' : r[i] }); })); };
    var bodyRows = t.rows.slice(0, t.rows.length - t.footer);
    var footRows = t.rows.slice(t.rows.length - t.footer);
    var table = h('table', { id: t.id }, [head, h('tbody', null, bodyRows.map(rowEl)), footRows.length ? h('tfoot', null, footRows.map(rowEl)) : null]);
    makeSortable(table);
    return h('div', { class: 'table' }, [h('h4', { text: t.title }), h('div', { class: 'scroll' }, [table]), t.note ? h('p', { class: 'note', text: t.note }) : null]);
  }

  // ---- header and summary ----
  function drawSummary() {
    document.title = model.title;
    $('title').textContent = model.title;
    var box = $('summary-body');
    model.sides.forEach(function (side) {
      var rows = side.summary.map(function (kv) { return h('tr', null, [h('td', { text: kv[0] }), h('td', { text: kv[1] })]); });
      box.appendChild(h('div', { id: 'summary-' + side.role }, [compare ? h('h3', { text: sideTitle(side) }) : null, h('table', { class: 'summary' }, [h('tbody', null, rows)])]));
    });
  }

  // ---- charts ----
  /** The charts on the run's shared x axis (zoomed together); allPlots: every chart (resized together). */
  var plots = [];
  var allPlots = [];
  var syncing = false;
  function syncZoom(u, key) {
    if (key !== 'x' || syncing) return;
    syncing = true;
    try {
      plots.forEach(function (o) { if (o !== u && o.scales.x) o.setScale('x', { min: u.scales.x.min, max: u.scales.x.max }); });
    } finally {
      syncing = false;
    }
  }
  function chartWidth(box) { return Math.max(320, Math.floor(box.getBoundingClientRect().width || 560)); }
  function colorOf(chart, s, k) {
    // One color per vat (or per figure); with two runs, the base's line dashed in its head's color (gray and red for a total).
    var keyOf = function (o) { return o.vatID !== undefined ? o.vatID : o.key; };
    if (keyOf(s) !== undefined) {
      var keys = [];
      chart.series.forEach(function (o) { if (keys.indexOf(keyOf(o)) < 0) keys.push(keyOf(o)); });
      return COLORS[keys.indexOf(keyOf(s)) % COLORS.length];
    }
    if (!compare) return COLORS[k % COLORS.length];
    return s.side === 0 ? '#6b7280' : COLORS[1];
  }
  /** Each part of crank time its color (a stacked chart: model/parts.ts's names). */
  var PART_COLORS = { 'page-in': '#e08a00', vat: '#2457c5', syscall: '#2a9d4b', pipe: '#7b4fc4', snapshot: '#d1495b', kernel: '#8d5a3b', unknown: '#9ca3af' };
  /**
   * A stacked chart: each part drawn as the running sum up to it, filled
   * down to zero, the top of the stack first, so that each fill shows only
   * its own band; hover shows each part's own value.
   */
  function stackedSeries(chart, data, series, fmtOwn) {
    var sums = [];
    var running = chart.x.map(function () { return 0; });
    chart.series.forEach(function (s) {
      running = running.map(function (v, i) { return v + (s.mean[i] || 0); });
      sums.push(running);
    });
    for (var k = chart.series.length - 1; k >= 0; k -= 1) {
      var s = chart.series[k];
      var color = PART_COLORS[s.label] || COLORS[k % COLORS.length];
      data.push(sums[k]);
      series.push({ label: s.label, stroke: color, fill: color, width: 1, points: { show: false }, value: fmtOwn(s.mean) });
    }
  }
  function drawChart(chart, container) {
    var box = h('div', { class: 'chart', id: 'chart-' + chart.id, 'data-chart': chart.id });
    (container || $('charts-body')).appendChild(box);
    // A chart with its own x axis is neither zoomed nor hovered with the others.
    var ownAxis = chart.axis !== undefined;
    var info = { id: chart.id, title: chart.title, note: undefined, points: 0, lines: chart.series.length, draws: 0, axis: chart.axis };
    var data = [chart.x];
    var series = [{ label: 'bucket', value: function (u, v, si, i) { return i === null || i === undefined ? '--' : chart.labels[i]; } }];
    var bands = [];
    var hidden = [];
    var fmt = function (u, v) { return valueText(chart.unit, v); };
    if (chart.stacked) {
      info.stacked = true;
      stackedSeries(chart, data, series, function (own) {
        return function (u, v, si, i) { return i === null || i === undefined ? '-' : valueText(chart.unit, own[i]); };
      });
    } else chart.series.forEach(function (s, k) {
      var color = colorOf(chart, s, k);
      var dash = compare && s.side === 0 ? [6, 4] : undefined;
      if (s.min && s.max) {
        var hi = data.length;
        data.push(s.max);
        series.push({ label: s.label + ' max', stroke: alpha(color, 0.35), width: 1, dash: dash, spanGaps: true, points: { show: false }, value: fmt });
        data.push(s.min);
        series.push({ label: s.label + ' min', stroke: alpha(color, 0.35), width: 1, dash: dash, spanGaps: true, points: { show: false }, value: fmt });
        bands.push({ series: [hi, hi + 1], fill: alpha(color, 0.12) });
        hidden.push(hi, hi + 1);
      }
      data.push(s.mean);
      series.push({ label: s.label, stroke: color, width: 1.5, dash: dash, spanGaps: true, points: { show: chart.x.length <= 60, size: 4 }, value: fmt });
    });
    var opts = {
      title: chart.title,
      width: chartWidth(box),
      height: 230,
      scales: { x: { time: false } },
      series: series,
      bands: bands,
      axes: [
        { label: ownAxis ? chart.axis : model.axis, labelSize: 18, size: 36 },
        { size: 64, values: function (u, splits) { return splits.map(function (v) { return tickText(chart.unit, v); }); } },
      ],
      cursor: { sync: { key: ownAxis ? 'slog-' + chart.id : 'slog' }, drag: { x: true, y: false } },
      hooks: { draw: [function (u) { info.draws += 1; info.yMax = u.scales.y ? u.scales.y.max : null; info.xRange = [u.scales.x.min, u.scales.x.max]; }], setScale: ownAxis ? [] : [syncZoom] },
    };
    var u = new uPlot(opts, data, box);
    if (chart.note) {
      box.appendChild(h('p', { class: 'note chart-note', text: chart.note }));
      info.note = chart.note;
    }
    var legendRows = u.root.querySelectorAll('.u-legend .u-series');
    hidden.forEach(function (i) { if (legendRows[i]) legendRows[i].style.display = 'none'; });
    info.points = u.data[0].length;
    // Each line, and its min and max when points cover several buckets, plus x.
    info.drawnSeries = u.series.length;
    if (!ownAxis) plots.push(u);
    allPlots.push(u);
    report.charts.push(info);
  }
  function drawCharts() {
    $('charts-note').textContent = model.pointNote + ' Drag across a chart to zoom (all charts follow), double-click to zoom out; hover for values.';
    if (!model.charts.length) $('charts-note').textContent = 'No series: no cranks in any bucket.';
    model.charts.forEach(function (chart) { drawChart(chart); });
    var pending;
    window.addEventListener('resize', function () {
      clearTimeout(pending);
      pending = setTimeout(function () {
        allPlots.forEach(function (u) { u.setSize({ width: chartWidth(u.root.parentNode), height: 230 }); });
      }, 100);
    });
  }

  // ---- top cranks ----
  var TOP_COLUMNS = [
    ['crankNum', 'crank', 'r'], ['vatID', 'vat'], ['vatName', 'name'], ['totalMicros', 'total', 'r'], ['localMicros', 'local', 'r'],
    ['localPercent', 'local %', 'r'], ['syscallMicros', 'syscall', 'r'], ['syscallPercent', 'syscall %', 'r'], ['syscallCount', 'syscalls', 'r'],
  ];
  /** Whole \u00b5s as stats prints them (render/format.ts readableMicros): 1.89 s, 36.21 ms, 902 \u00b5s; the exact \u00b5s in the cell's title. */
  function readableMicros(us) {
    var size = Math.abs(us);
    if (size >= 1e6) return (us / 1e6).toFixed(2) + ' s';
    if (size >= 1e3) return (us / 1e3).toFixed(2) + ' ms';
    return Math.round(us) + ' \u00b5s';
  }
  function topCell(field, v) {
    if (v === undefined || v === null) return { text: '' };
    if (/Micros$/.test(field) && typeof v === 'number') return { text: readableMicros(v), title: v + ' \u00b5s' };
    return { text: String(v) };
  }
  function drawTop(side) {
    var box = h('div', { id: 'top-' + side.role });
    $('top-body').appendChild(box);
    if (compare) box.appendChild(h('h3', { text: sideTitle(side) }));
    box.appendChild(h('p', { class: 'hint', text: 'The ' + side.top.n + ' delivery cranks that cost the most, of ' + side.top.ranked + ' finished ones, ranked as slogulate top ranks them. Click a crank for its text (--nonoise --novatstore --timing).' }));
    if (!side.top.ranked) {
      box.appendChild(h('p', { text: 'No finished delivery cranks.' }));
      return;
    }
    var tabs = h('div', { class: 'tabs', role: 'tablist' });
    var tables = h('div');
    var pre = h('pre', { class: 'crank-text', id: 'crank-text-' + side.role, text: 'Click a crank above to see its text.' });
    box.appendChild(tabs);
    box.appendChild(tables);
    box.appendChild(pre);
    var columns = TOP_COLUMNS.slice();
    if (side.top.hasComputrons) columns.push(['computrons', 'computrons', 'r']);
    var buttons = [];
    var panels = [];
    function select(i) {
      buttons.forEach(function (b, j) { b.setAttribute('aria-selected', String(i === j)); });
      panels.forEach(function (p, j) { p.hidden = i !== j; });
    }
    side.top.rankings.forEach(function (r, i) {
      var b = h('button', { type: 'button', role: 'tab', 'data-key': r.key, text: 'by ' + r.title });
      b.addEventListener('click', function () { select(i); });
      buttons.push(b);
      tabs.appendChild(b);
      var rows = r.cranks.map(function (c, rank) {
        var tr = h('tr', { tabindex: '0', 'data-crank': String(c.crankNum), 'data-text': c.textId, title: c.header },
          [h('td', { class: 'r', text: String(rank + 1) })].concat(columns.map(function (col) {
            var cell = topCell(col[0], c[col[0]]);
            return h('td', { class: col[2], 'data-field': col[0], text: cell.text, title: cell.title });
          })));
        var open = function () {
          Array.prototype.forEach.call(box.querySelectorAll('tr.selected'), function (o) { o.classList.remove('selected'); });
          tr.classList.add('selected');
          pre.textContent = c.textId !== undefined && side.texts[c.textId] !== undefined ? side.texts[c.textId] : c.header + '\n(no text: the crank could not be read again)';
        };
        tr.addEventListener('click', open);
        tr.addEventListener('keydown', function (e) { if (e.key === 'Enter') open(); });
        return tr;
      });
      var head = h('thead', null, [h('tr', null, [h('th', { class: 'r', text: '#' })].concat(columns.map(function (col) { return h('th', { class: col[2], text: col[1] }); })))]);
      var table = h('table', { class: 'top', id: 'top-' + side.role + '-' + r.key, 'data-key': r.key }, [head, h('tbody', null, rows)]);
      var panel = h('div', { role: 'tabpanel' }, [r.cranks.length ? h('div', { class: 'scroll' }, [table]) : h('p', { text: 'No crank reports ' + r.title + '.' })]);
      panels.push(panel);
      tables.appendChild(panel);
    });
    select(0);
  }

  // ---- stats and compare tables ----
  function drawTables(side) {
    var box = h('div', { id: 'tables-' + side.role });
    $('tables-body').appendChild(box);
    if (compare) box.appendChild(h('h3', { text: sideTitle(side) }));
    side.tables.forEach(function (t) { box.appendChild(tableOf(t)); });
  }
  function drawCompare() {
    var c = model.compare;
    var box = $('compare');
    if (!c) { box.hidden = true; return; }
    var body = $('compare-body');
    if (c.verdict) body.appendChild(h('p', null, [h('span', { id: 'verdict', class: 'verdict ' + (/^no threshold/.test(c.verdict) ? 'ok' : 'exceeded'), text: c.verdict })]));
    c.notes.forEach(function (n) { body.appendChild(h('p', { class: 'note', text: n })); });
    c.tables.forEach(function (t) { body.appendChild(tableOf(t)); });
  }

  // ---- what grows ----
  function drawGrowth() {
    var sides = model.sides.filter(function (side) { return side.growth; });
    if (!sides.length) { $('growth').hidden = true; return; }
    model.growthCharts.forEach(function (chart) { drawChart(chart, $('growth-charts')); });
    sides.forEach(function (side) {
      var g = side.growth;
      var box = h('div', { id: 'growth-' + side.role });
      $('growth-body').appendChild(box);
      if (compare) box.appendChild(h('h3', { text: sideTitle(side) }));
      box.appendChild(h('p', { class: 'hint', text: 'Measured over ' + g.periods + '.' }));
      if (g.hasPeriods) {
        box.appendChild(h('h4', { text: 'Growing (a positive change from the start of the first ' + g.per + ' to the end of the last)' }));
        box.appendChild(h('ul', { class: 'growing', id: 'growing-' + side.role }, (g.growing.length ? g.growing : ['nothing']).map(function (line) { return h('li', { text: line }); })));
      }
      g.tables.forEach(function (t) { box.appendChild(tableOf(t)); });
    });
  }

  drawSummary();
  drawCompare();
  drawCharts();
  drawGrowth();
  model.sides.forEach(drawTop);
  model.sides.forEach(drawTables);
  report.ready = true;
})();
`;
