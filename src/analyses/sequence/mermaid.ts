/**
 * A sequence diagram as Mermaid text (GitHub renders it in markdown):
 *
 *     sequenceDiagram
 *         participant v1 as v1 bootstrap
 *         participant v5 as v5 timer
 *         v1->>v5: 35#58; createTimerService(@kd30)#58; @kp41
 *         v5-->>v1: 38#58; fulfilled#58; @kp41 #58;= @ko27
 *
 * Every label is escaped (escapeLabel) so that no method name, argument or
 * vat name can end a statement, start a comment or break the grammar.
 */
import type { Arrow, Diagram } from './arrows.js';

/** Characters a label keeps as they are; every other one is written as Mermaid's `#code;`. */
const PLAIN = /[A-Za-z0-9 _.,@()+*/=-]/;

/** A label Mermaid reads as text whatever it holds: anything but letters, digits and a few signs as `#code;`. */
export function escapeLabel(text: string): string {
  let out = '';
  for (const ch of text) out += PLAIN.test(ch) ? ch : `#${ch.codePointAt(0) as number};`;
  // Leading and trailing spaces are trimmed by Mermaid: keep the label as is.
  return out;
}

/** A participant's ID: letters, digits and `_` only. */
export function participantId(id: string): string {
  return `p_${id.replace(/[^A-Za-z0-9]/g, (ch) => `_${ch.codePointAt(0) as number}_`)}`;
}

const ARROWS: Record<Arrow['style'], string> = { message: '->>', notify: '-->>', kernel: '-)' };

export function mermaidText(diagram: Diagram): string {
  const lines = ['sequenceDiagram'];
  for (const p of diagram.participants) lines.push(`    participant ${participantId(p.id)} as ${escapeLabel(p.label)}`);
  for (const a of diagram.arrows) lines.push(`    ${participantId(a.from)}${ARROWS[a.style]}${participantId(a.to)}: ${escapeLabel(a.label)}`);
  return `${lines.join('\n')}\n`;
}
