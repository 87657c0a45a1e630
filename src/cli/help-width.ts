/**
 * Help text fitted to 80 columns. Commander wraps its own option and
 * command lists (at `HELP_WIDTH`); the text a command adds after them
 * (examples, grammars, table lists) is fitted here, a line at a time:
 *
 * - `  LABEL: text` (`METRIC:`, `deliveries:`, `e.g.`): the text wraps under
 *   itself, after the label;
 * - `  command   what it does` (two spaces or more between): the description
 *   wraps under itself;
 * - a command line (`  slogulate ...`) breaks between words outside quotes,
 *   with a ` \` at the end, the rest indented four more;
 * - any other line wraps under its own indent.
 */
export const HELP_WIDTH = 80;

const LABEL = /^(\s*(?:[A-Za-z][A-Za-z.]*:|e\.g\.)\s+)\S/;
const COLUMNS = /^(\s+\S+(?: \S+)*? {2,})\S/;
const COMMAND = /^\s+(?:slogulate|source|cat)\b/;

export function fitHelp(text: string, width = HELP_WIDTH): string {
  return text
    .split('\n')
    .map((line) => fitLine(line, width))
    .join('\n');
}

function fitLine(line: string, width: number): string {
  if ([...line].length <= width) return line;
  const label = LABEL.exec(line)?.[1];
  if (label !== undefined) return wrapUnder(line, label.length, width);
  if (COMMAND.test(line)) {
    const columns = COLUMNS.exec(line)?.[1];
    if (columns !== undefined && columns.length < width - 20) return wrapUnder(line, columns.length, width);
    return breakCommand(line, width);
  }
  const columns = COLUMNS.exec(line)?.[1];
  if (columns !== undefined && columns.length < width - 20) return wrapUnder(line, columns.length, width);
  return wrapUnder(line, line.length - line.trimStart().length, width);
}

/** The text after `indent` characters wrapped at spaces, each further line indented by as many. */
function wrapUnder(line: string, indent: number, width: number): string {
  const head = line.slice(0, indent);
  const words = line.slice(indent).split(' ');
  const lines: string[] = [];
  let current = head;
  let empty = true;
  for (const word of words) {
    if (!empty && [...current].length + 1 + [...word].length > width) {
      lines.push(current.trimEnd());
      current = ' '.repeat(indent);
      empty = true;
    }
    current += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(current);
  return lines.join('\n');
}

/** A shell command broken between words outside quotes, ` \` ending each piece but the last. */
function breakCommand(line: string, width: number): string {
  const indent = line.length - line.trimStart().length;
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  for (const c of line.slice(indent)) {
    if (quote === undefined && c === ' ') {
      words.push(word);
      word = '';
      continue;
    }
    if (quote === undefined && (c === "'" || c === '"')) quote = c;
    else if (c === quote) quote = undefined;
    word += c;
  }
  words.push(word);
  const lines: string[] = [];
  let current = ' '.repeat(indent);
  let empty = true;
  for (const w of words) {
    // Room for ` \` at the end of a piece.
    if (!empty && [...current].length + 1 + [...w].length > width - 2) {
      lines.push(`${current} \\`);
      current = ' '.repeat(indent + 4);
      empty = true;
    }
    current += empty ? w : ` ${w}`;
    empty = false;
  }
  lines.push(current);
  return lines.join('\n');
}
