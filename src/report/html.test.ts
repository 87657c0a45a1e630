import { describe, expect, it } from 'vitest';
import { chartLibrary, reportHtml } from './html.js';
import { REPORT_FORMAT, REPORT_VERSION, type ReportData } from './report-data.js';

/** A report whose text fields hold what a slog's console messages can hold. */
function hostileData(): ReportData {
  const nasty = '</script><script>alert(1)</script> <!-- \u2028 & "quotes" \'single\'';
  return {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    title: `slogulate report: ${nasty}`,
    axis: 'crank number',
    pointNote: 'Each point is a bucket of 250 cranks.',
    charts: [],
    growthCharts: [],
    sides: [
      {
        role: 'slog',
        files: [nasty],
        summary: [['file', nasty]],
        top: { n: 5, ranked: 0, hasComputrons: false, rankings: [] },
        texts: { c0: `// crank 1: v1 x\nlog: ${nasty}\n` },
        tables: [],
      },
    ],
  };
}

describe('reportHtml', () => {
  it('inlines uPlot, the styles, the script and the data: nothing is fetched', () => {
    const library = chartLibrary();
    const html = reportHtml(hostileData(), library);
    expect(html).toContain(library.script.slice(0, 200));
    expect(html).toContain(library.style.slice(0, 100));
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!github\.com\/leeoniya)/);
  });

  it('keeps text from the slog inside its data block, whatever it holds', () => {
    const data = hostileData();
    const html = reportHtml(data, { script: 'window.x = 1;', style: 'body{}' });
    // Only the page's own three scripts close.
    expect(html.match(/<\/script>/g)?.length).toBe(3);
    const m = /<script type="application\/json" id="slog-report-data">(.*?)<\/script>/s.exec(html);
    expect(JSON.parse(m?.[1] as string)).toEqual(data);
    expect(html).toContain('<title>slogulate report: &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &lt;!-- \u2028 &amp; &quot;quotes&quot; &#39;single&#39;</title>');
  });
});
