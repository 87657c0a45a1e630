/**
 * Annotation files: human names for vats, cranks and refs (SLOG-FORMAT.md,
 * "Annotation files"). Loading validates every key, so that a bad file is
 * reported as one line naming the file and the key that is wrong.
 */
import { readFileSync } from 'node:fs';

export interface Annotations {
  /** Printed first, as `// comment` and a blank line. */
  comment?: string;
  /** The `<BIG>` threshold; overrides `--bigwidth`. */
  bigWidth?: number;
  /** vatID -> name; wins over names found in the slog. */
  vatNames: Map<string, string>;
  /** crank number -> label, printed in the crank header after ` --- `. */
  crankLabels: Map<number, string>;
  /** kref -> name, printed as `<name>` in kernel space. */
  kernelRefs: Map<string, string>;
  /** vatID -> (vref -> name), printed as `<name>` in vat space. */
  vatRefs: Map<string, Map<string, string>>;
}

export class AnnotationError extends Error {
  constructor(
    readonly file: string,
    readonly where: string,
    readonly why: string,
  ) {
    super(`${file}: ${where ? `${where}: ` : ''}${why}`);
  }
}

export function emptyAnnotations(): Annotations {
  return { vatNames: new Map(), crankLabels: new Map(), kernelRefs: new Map(), vatRefs: new Map() };
}

const KNOWN_KEYS = new Set(['comment', 'bigWidth', 'vatNames', 'crankLabels', 'kernelRefs', 'vatRefs', 'writtenBy']);
const VAT_ID = /^v\d+$/;
const KREF = /^k[opd]\d+$/;
const VREF = /^[opd][+-]/;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function stringTable(
  file: string,
  key: string,
  value: unknown,
  keyPattern: RegExp,
  keyWhat: string,
): Map<string, string> {
  if (!isPlainObject(value)) throw new AnnotationError(file, key, 'expected an object of names');
  const table = new Map<string, string>();
  for (const [k, name] of Object.entries(value)) {
    if (!keyPattern.test(k)) throw new AnnotationError(file, `${key}.${k}`, `not ${keyWhat}`);
    if (typeof name !== 'string') throw new AnnotationError(file, `${key}.${k}`, 'expected a string name');
    table.set(k, name);
  }
  return table;
}

/** Validates parsed JSON as an annotation file; `file` names it in errors. */
export function parseAnnotations(json: unknown, file: string): Annotations {
  if (!isPlainObject(json)) throw new AnnotationError(file, '', 'expected a JSON object at the top level');
  const result = emptyAnnotations();
  for (const key of Object.keys(json)) {
    if (!KNOWN_KEYS.has(key)) {
      throw new AnnotationError(file, key, `unknown key (expected one of ${[...KNOWN_KEYS].join(', ')})`);
    }
  }
  // `writtenBy`: the mark of the file `slogulate annotate` wrote (analyses/flow/annotation-mark.ts), no names.
  if (json.writtenBy !== undefined && !isPlainObject(json.writtenBy)) throw new AnnotationError(file, 'writtenBy', 'expected an object');
  if (json.comment !== undefined) {
    if (typeof json.comment !== 'string') throw new AnnotationError(file, 'comment', 'expected a string');
    result.comment = json.comment;
  }
  if (json.bigWidth !== undefined) {
    const bw = json.bigWidth;
    if (typeof bw !== 'number' || !Number.isInteger(bw) || bw < 0) {
      throw new AnnotationError(file, 'bigWidth', 'expected a non-negative integer');
    }
    result.bigWidth = bw;
  }
  if (json.vatNames !== undefined) {
    result.vatNames = stringTable(file, 'vatNames', json.vatNames, VAT_ID, 'a vat ID like v9');
  }
  if (json.crankLabels !== undefined) {
    for (const [k, label] of stringTable(file, 'crankLabels', json.crankLabels, /^\d+$/, 'a crank number')) {
      result.crankLabels.set(Number(k), label);
    }
  }
  if (json.kernelRefs !== undefined) {
    result.kernelRefs = stringTable(file, 'kernelRefs', json.kernelRefs, KREF, 'a kref like ko12, kp40 or kd3');
  }
  if (json.vatRefs !== undefined) {
    if (!isPlainObject(json.vatRefs)) throw new AnnotationError(file, 'vatRefs', 'expected an object keyed by vat ID');
    for (const [vat, table] of Object.entries(json.vatRefs)) {
      if (!VAT_ID.test(vat)) throw new AnnotationError(file, `vatRefs.${vat}`, 'not a vat ID like v9');
      result.vatRefs.set(vat, stringTable(file, `vatRefs.${vat}`, table, VREF, 'a vref like o+5 or p-60'));
    }
  }
  return result;
}

/** Reads and validates an annotation file. Throws AnnotationError with a one-line reason. */
export function loadAnnotations(file: string): Annotations {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new AnnotationError(file, '', code === 'ENOENT' ? 'no such file' : `cannot read (${code ?? String(err)})`);
  }
  let json: unknown;
  try {
    // A byte-order mark (editors on Windows write one) is not part of the JSON.
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    // One line: JSON.parse's message may quote the text, line ends and all.
    throw new AnnotationError(file, '', `not valid JSON (${(err as Error).message.replace(/\r?\n/g, '\\n')})`);
  }
  return parseAnnotations(json, file);
}
