/**
 * The text of `slogulate why`: a chain of causes, one line per step, from
 * the crank asked about back to its run's trigger; or the trees of cranks
 * caused, indented by depth, with a summary in the walkthrough's terms.
 *
 *     crank 853 v6 board +1.625ms deliver: @ko23 <- get(61): @kp154 [send in crank 846 (v8), syscall 2, queued 0.812ms]
 *     trigger: mailbox agoric1x (2), block 73 run 2 (inbound)
 */
import type { Cause } from './cause.js';
import type { CauseChain, ChainEnd } from './ancestry.js';
import type { ForwardTrees, TreeSummary } from './forward.js';
import type { Step } from './step.js';

function ms(micros: number): string {
  return `${(micros / 1000).toFixed(3)}ms`;
}

/** `send in crank 846 (v8), syscall 2` */
export function causeText(cause: Cause): string {
  const where = `crank ${cause.crank}${cause.vat === undefined ? '' : ` (${cause.vat})`}`;
  const syscall = cause.syscallNum >= 0 ? `, syscall ${cause.syscallNum}` : '';
  switch (cause.kind) {
    case 'send':
      return `send in ${where}${syscall}`;
    case 'resolve':
      return `resolve in ${where}${syscall}`;
    case 'subscribe':
      return `subscribe (already resolved) in ${where}${syscall}`;
    case 'gc':
      return cause.syscallNum >= 0 ? `GC drop in ${where}${syscall}` : `kernel GC after ${where}`;
    case 'reap':
      return `reap after ${where}`;
    case 'create':
      return `vat-admin request in ${where}${syscall}`;
    case 'outside':
      return cause.trigger === undefined ? 'from outside the vats (the kernel or a device)' : `trigger: ${cause.trigger}`;
    case 'before-slog':
      return 'queued before the slog starts';
    default:
      return cause.kind;
  }
}

/** One step: the crank, its time from `zero`, what it received, and its cause. */
export function stepLine(step: Step, zero: number | undefined): string {
  const label = step.label === undefined ? '' : ` --- ${step.label}`;
  const at = zero !== undefined && step.time !== undefined ? ` +${ms(Math.round((step.time - zero) * 1e6))}` : '';
  const queued = step.queueMicros === undefined ? '' : `, queued ${ms(step.queueMicros)}`;
  return `crank ${step.crankNum} ${step.vatName}${label}${at} ${step.line} [${causeText(step.cause)}${queued}]`;
}

function endLine(end: ChainEnd): string {
  switch (end.kind) {
    case 'trigger':
      return `trigger: ${end.run.trigger}, ${end.run.text}`;
    case 'earlier run':
      return `trigger: ${end.run.trigger}, ${end.run.text} (the first step was queued before this run: ${causeText(end.cause)})`;
    case 'outside':
      return end.trigger === undefined ? 'from outside the vats: the kernel or a device (the start of the chain)' : `trigger: ${end.trigger}`;
    case 'before-slog':
      return 'before the slog: what queued the first step came before its first line';
    default:
      return '';
  }
}

/**
 * The chain, the crank asked about first; times from the first step's
 * start. `steps`: print at most this many, then how many more lead back to
 * the first (a benchmark's rounds can chain thousands of cranks).
 */
export function chainLines(chain: CauseChain, steps = Infinity): string[] {
  const all = chain.steps;
  const zero = all[all.length - 1]?.time;
  const shown = all.slice(0, Math.max(1, steps)).map((step) => stepLine(step, zero));
  const left = all.length - shown.length;
  if (left > 0) shown.push(`... ${left} more step${left === 1 ? '' : 's'} back to crank ${all[all.length - 1]?.crankNum}`);
  return [...shown, endLine(chain.end)];
}

/** `138 cranks in 8 vats; 31.214ms`, then a line per vat: `v46 vaultFactory 18 cranks: 3 messages, 15 notifications`. */
export function summaryLines(summary: TreeSummary): string[] {
  const vats = summary.vats.length;
  const head = `${summary.cranks} crank${summary.cranks === 1 ? '' : 's'} in ${vats} vat${vats === 1 ? '' : 's'}${summary.micros === undefined ? '' : `; ${ms(summary.micros)}`}`;
  const rows = summary.vats.map((v) => {
    const other = v.other ? `, ${v.other} other` : '';
    return `  ${v.vatName} ${v.cranks} crank${v.cranks === 1 ? '' : 's'}: ${v.messages} message${v.messages === 1 ? '' : 's'}, ${v.notifications} notification${v.notifications === 1 ? '' : 's'}${other}`;
  });
  return [head, ...rows];
}

/** The trees, depth first, two spaces a level; times from the first root's start. */
export function treeLines(trees: ForwardTrees): string[] {
  const zero = trees.roots[0]?.step.time;
  const out: string[] = [];
  let lastRun: string | undefined;
  for (const { node, depth } of trees.walk()) {
    const run = node.step.run;
    if (depth === 0 && run && run.key !== lastRun) {
      out.push(`// ${run.text}: trigger ${run.trigger}`);
      lastRun = run.key;
    }
    out.push(`${'  '.repeat(depth)}${stepLine(node.step, zero)}`);
  }
  return out;
}
