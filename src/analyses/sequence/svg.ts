/**
 * A sequence diagram as a self-contained SVG file, drawn here (no script,
 * no font or style from elsewhere, nothing fetched): a column per
 * participant with its name on top and a dashed lifeline, a row per
 * arrow, labelled above its line, the whole label in the arrow's <title>
 * (a browser shows it on hover). A message is a solid line, a notification
 * a dashed blue one, a kernel delivery (bringOutYourDead, GC, startVat) a
 * grey one; an arrow from a vat to itself is a loop to the right.
 */
import type { Arrow, Diagram } from './arrows.js';

const COLUMN = 230;
const MARGIN = 20;
const HEAD = 46;
const ROW = 30;
/** Pixels per character of the 11px monospace labels, to cut a label to its arrow's width. */
const CHAR = 6.7;

/** Text as XML character data or an attribute value. */
export function xmlText(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd');
}

function cut(text: string, width: number): string {
  const chars = Math.max(4, Math.floor(width / CHAR));
  const all = [...text];
  return all.length <= chars ? text : `${all.slice(0, chars - 1).join('')}…`;
}

const STYLE: Record<Arrow['style'], string> = {
  message: 'stroke="#222" fill="none"',
  notify: 'stroke="#1f5fbf" stroke-dasharray="6 4" fill="none"',
  kernel: 'stroke="#888" fill="none"',
};
const MARKER: Record<Arrow['style'], string> = { message: 'm', notify: 'n', kernel: 'k' };

function arrowSvg(arrow: Arrow, row: number, x: (id: string) => number): string {
  const y = HEAD + 20 + row * ROW;
  const x1 = x(arrow.from);
  const x2 = x(arrow.to);
  const title = `<title>${xmlText(arrow.label)}</title>`;
  const style = STYLE[arrow.style];
  const marker = `marker-end="url(#${MARKER[arrow.style]})"`;
  if (x1 === x2) {
    const d = `M${x1} ${y - 6} h40 v12 h-38`;
    const label = `<text x="${x1 + 46}" y="${y + 4}">${xmlText(cut(arrow.label, COLUMN - 60))}</text>`;
    return `<g class="arrow ${arrow.style}">${title}<path d="${d}" ${style} ${marker}/>${label}</g>`;
  }
  const width = Math.abs(x2 - x1);
  const label = `<text x="${(x1 + x2) / 2}" y="${y - 5}" text-anchor="middle">${xmlText(cut(arrow.label, width - 10))}</text>`;
  const end = x2 > x1 ? x2 - 2 : x2 + 2;
  return `<g class="arrow ${arrow.style}">${title}<line x1="${x1}" y1="${y}" x2="${end}" y2="${y}" ${style} ${marker}/>${label}</g>`;
}

function markerSvg(id: string, color: string): string {
  return `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" fill="${color}"/></marker>`;
}

export function svgText(diagram: Diagram): string {
  const columns = new Map(diagram.participants.map((p, i) => [p.id, MARGIN + COLUMN / 2 + i * COLUMN]));
  const x = (id: string): number => columns.get(id) ?? MARGIN;
  // Room right of the last column for the label of an arrow from its vat to itself.
  const width = MARGIN * 2 + COLUMN * Math.max(1, diagram.participants.length) + COLUMN / 2;
  const height = HEAD + 20 + diagram.arrows.length * ROW + MARGIN;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="monospace" font-size="11">`,
    `<defs>${markerSvg('m', '#222')}${markerSvg('n', '#1f5fbf')}${markerSvg('k', '#888')}</defs>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
  ];
  for (const p of diagram.participants) {
    const cx = x(p.id);
    out.push(
      `<g class="participant"><title>${xmlText(p.label)}</title><rect x="${cx - COLUMN / 2 + 8}" y="${MARGIN - 10}" width="${COLUMN - 16}" height="26" rx="4" fill="#eef2f7" stroke="#556"/>` +
        `<text x="${cx}" y="${MARGIN + 7}" text-anchor="middle" font-weight="bold">${xmlText(cut(p.label, COLUMN - 24))}</text>` +
        `<line x1="${cx}" y1="${MARGIN + 16}" x2="${cx}" y2="${height - MARGIN / 2}" stroke="#bbb" stroke-dasharray="3 3"/></g>`,
    );
  }
  diagram.arrows.forEach((arrow, row) => out.push(arrowSvg(arrow, row, x)));
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
