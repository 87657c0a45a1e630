/**
 * The text render as a pass: slog inputs and render options in, text out
 * (through `out`), and which path read the lines. The command line
 * (cli/render-command.ts) and the tests call this.
 */
import type { Readable } from 'node:stream';
import { CrankSelection, isSelecting, type SelectionSpec } from '../analyses/common/selection.js';
import { emptyAnnotations, type Annotations } from '../model/annotations.js';
import type { Crank } from '../model/crank.js';
import { defaultRenderOptions, type RenderOptions } from '../render/options.js';
import { renderReads } from '../render/reads.js';
import { TextRenderer, type TextOut } from '../render/text-renderer.js';
import type { ReadPath } from '../scan/line-reader.js';
import type { SlogInput, SlogSource } from '../source/open.js';
import { runPass, type BadLineReport, type PassResult } from './pass.js';
import { seekRangeOf } from './pass-seek.js';
import { settingsFor, type PassSettings } from './pass-settings.js';

export interface RenderConfig {
  inputs: readonly SlogInput[];
  options?: Partial<RenderOptions>;
  annotations?: Annotations;
  /** Only these cranks (`--cranks`, `--vat`, `--blocks`): entries outside cranks are then not printed. */
  selection?: SelectionSpec;
  /** Where the text goes (default: collected into the result's `text`). */
  out?: TextOut;
  onBadLine?: (bad: BadLineReport) => void;
  afterBatch?: (bytes: number) => Promise<void> | void;
  onOpen?: (source: SlogSource) => void;
  open?: (path: string) => SlogSource | Promise<SlogSource>;
  /** How to read (default: the switches', read once per call; pass-settings.ts). */
  settings?: PassSettings;
  /** `plain` forces the plain path (over `settings`). */
  path?: ReadPath;
  stdin?: Readable;
}

export interface RenderResult extends PassResult {
  /** The text, when no `out` was given. */
  text: string;
  /** Cranks the selection kept (all cranks without one). */
  selected: number;
  /** Was there a selection? */
  selecting: boolean;
  /** The selection in words. */
  selectionText: string;
}

export async function renderSlog(config: RenderConfig): Promise<RenderResult> {
  const options: RenderOptions = { ...defaultRenderOptions(), ...config.options };
  const annotations = config.annotations ?? emptyAnnotations();
  let text = '';
  const out: TextOut = config.out ?? ((t) => (text += t));
  const spec = config.selection ?? {};
  const selecting = isSelecting(spec);
  let selected = 0;
  let selection: CrankSelection | undefined;
  const renderer = new TextRenderer({
    options,
    annotations,
    out,
    ...(selecting
      ? {
          selectCrank: (crank: Crank) => {
            const keep = (selection as CrankSelection).matches(crank);
            if (keep) selected += 1;
            return keep;
          },
          printOutside: false,
        }
      : {}),
  });
  selection = new CrankSelection(spec, renderer.vats);
  // The text starts at the slog's first entry, or at its end when it has none (an empty slog): an input that
  // cannot be opened, or is not a slog (run/pass.ts), prints nothing.
  let begun = false;
  // --summarize counts every entry, --nonoise's block headers the empty blocks before: both need the whole slog (pass-seek.ts).
  const range = selecting && !options.summarize && !options.nonoise ? seekRangeOf(spec) : undefined;
  const result = await runPass({
    inputs: config.inputs,
    reads: renderReads(options),
    sink: renderer,
    observe: (entry) => {
      if (!begun) renderer.begin();
      begun = true;
      renderer.observe(entry);
    },
    onBadLine: config.onBadLine,
    afterBatch: config.afterBatch,
    onOpen: config.onOpen,
    open: config.open,
    settings: settingsFor(config),
    stdin: config.stdin,
    // Big strings go out through the renderer's scope (render/text-renderer.ts).
    bigStrings: true,
    bigTextScope: renderer.bigText,
    ...(range ? { seek: { range, learn: (entry) => renderer.vats.observe(entry) } } : {}),
  });
  if (!begun) renderer.begin();
  renderer.end();
  return { ...result, text, selected: selecting ? selected : 0, selecting, selectionText: selection.describe() };
}
