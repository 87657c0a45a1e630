/**
 * How `slogulate annotate` knows a file it may replace: the file it writes
 * ends with a mark, `"writtenBy": {"command": "slogulate annotate",
 * "sha256": ...}`, the SHA-256 of the rest of the file as annotate wrote it
 * (the JSON without the mark, two-space indented). A file without the mark
 * was not written by annotate (made by hand, or by another tool); a file
 * whose rest no longer has that digest was edited since: either holds names
 * someone chose, which `annotate -o` does not replace without `--force`
 * (`--merge F -o F` keeps them and adds the new ones). Loading an
 * annotation file ignores the mark (model/annotations.ts).
 */
import type { AnnotationJson } from './auto-names.js';
import { crypto } from '../../source/builtins.js';

export const MARK_KEY = 'writtenBy';
const COMMAND = 'slogulate annotate';

const digest = (text: string): string => crypto().createHash('sha256').update(text).digest('hex');
const body = (json: object): string => JSON.stringify(json, null, 2);

/** The file's text: the JSON, then its mark, ending with a newline. */
export function markedAnnotationText(json: AnnotationJson): string {
  return `${body({ ...json, [MARK_KEY]: { command: COMMAND, sha256: digest(body(json)) } })}\n`;
}

/** What a file's text says of who wrote it: annotate, unchanged since (`unchanged`), edited since, or not annotate. */
export type MarkVerdict = 'unchanged' | 'edited' | 'not-annotate';

export function annotateMark(text: string): MarkVerdict {
  let json: unknown;
  try {
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return 'not-annotate';
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return 'not-annotate';
  const { [MARK_KEY]: mark, ...rest } = json as Record<string, unknown>;
  const m = mark as { command?: unknown; sha256?: unknown } | undefined;
  if (m === null || typeof m !== 'object' || m.command !== COMMAND || typeof m.sha256 !== 'string') return 'not-annotate';
  return digest(body(rest)) === m.sha256 ? 'unchanged' : 'edited';
}
