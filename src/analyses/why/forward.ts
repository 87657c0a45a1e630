/**
 * The cranks a crank caused, directly or not (`slogulate why --forward`),
 * or every delivery crank of a selection (`--run`, `--blocks`, `--cranks`), as trees:
 * each crank under the crank that caused it. Read as the slog streams: a
 * crank belongs when its cause's crank does. On a chain, a tree stays in
 * the run of its root (the next run has its own trigger: `why` follows
 * causes back to a run's trigger, never across it).
 */
import type { Cause } from './cause.js';
import type { InFlightWatch } from './in-flight.js';
import type { Step } from './step.js';

/** A crank of the tree and its place in it. */
export interface TreeNode {
  step: Step;
  /** The crank that caused it, when that is in the tree too (-1: a root). */
  parent: number;
  children: TreeNode[];
}

/**
 * Which cranks the trees hold: those a crank caused, or those `select`
 * takes (of some runs, blocks or cranks); `over`, when it says so of a
 * crank, or `pastBlock`, when it says so of a block that begins (its
 * begin-block's height), ends the read: no later crank can be selected.
 */
export type TreeRoot =
  | { crank: number }
  | {
      select: (crankNum: number, runKey: string | undefined, height: number | undefined) => boolean;
      over?: (crankNum: number, runKey: string | undefined) => boolean;
      pastBlock?: (height: number) => boolean;
    };

export class ForwardTrees {
  private readonly nodes = new Map<number, TreeNode>();
  readonly roots: TreeNode[] = [];
  /** The runs of the roots (a crank tree ends with its root's run). */
  private rootRun: string | undefined;
  private done = false;

  constructor(readonly root: TreeRoot) {}

  /** Cranks in the trees. */
  get size(): number {
    return this.nodes.size;
  }

  /** Is the tree over (the root's run ended)? Read no further. */
  get finished(): boolean {
    return this.done;
  }

  /**
   * Would this delivery crank belong (its cause's crank in the tree, or the
   * root itself, or a crank of a chosen run)? `run`: its run's key.
   */
  belongs(crankNum: number, causeCrank: number, run: string | undefined, height: number | undefined): boolean {
    if ('crank' in this.root) {
      if (crankNum === this.root.crank) return !this.nodes.size;
      if (!this.nodes.size) return false;
      if (this.rootRun !== undefined && run !== this.rootRun) {
        this.done = true;
        return false;
      }
      return this.nodes.has(causeCrank);
    }
    return this.root.select(crankNum, run, height);
  }

  /** Any crank read (routing ones too): a crank tree on a chain is over when its root's run is; a selection, when it says so. */
  passed(crankNum: number, run: string | undefined): void {
    if ('crank' in this.root) {
      if (this.nodes.size && this.rootRun !== undefined && run !== this.rootRun) this.done = true;
    } else if (this.root.over?.(crankNum, run)) {
      this.done = true;
    }
  }

  /** A chain block begins (its begin-block): a selection of blocks is over past its last. */
  blockBegins(height: number): void {
    if (!('crank' in this.root) && this.root.pastBlock?.(height)) this.done = true;
  }

  add(step: Step): void {
    const parentNode = this.nodes.get(step.cause.crank);
    const node: TreeNode = { step, parent: parentNode ? step.cause.crank : -1, children: [] };
    if (!this.nodes.size && 'crank' in this.root) this.rootRun = step.run?.key;
    this.nodes.set(step.crankNum, node);
    if (parentNode) parentNode.children.push(node);
    else this.roots.push(node);
  }

  /** Is the crank in the trees? */
  has(crankNum: number): boolean {
    return this.nodes.has(crankNum);
  }

  /** Every crank of the trees, in slog order. */
  cranks(): number[] {
    return [...this.nodes.keys()];
  }

  /** Every node, each tree depth first (children in slog order), with its depth. */
  *walk(): Generator<{ node: TreeNode; depth: number }> {
    const stack: { node: TreeNode; depth: number }[] = [];
    for (let i = this.roots.length - 1; i >= 0; i -= 1) stack.push({ node: this.roots[i] as TreeNode, depth: 0 });
    for (let at = stack.pop(); at; at = stack.pop()) {
      yield at;
      const { node, depth } = at;
      for (let i = node.children.length - 1; i >= 0; i -= 1) stack.push({ node: node.children[i] as TreeNode, depth: depth + 1 });
    }
  }
}

/**
 * The items in flight (in-flight.ts's watch) that the cranks of a crank's
 * tree queued: a crank joins the tree only when what queued it is such an
 * item (its cause's crank is in the tree), so once none is left, no later
 * crank can join, and the read may end. Items are counted per crank as they
 * are queued (a crank's are queued before it joins: `joined` adds them).
 * Memory: a count per crank with items in flight.
 */
export class TreeInFlight implements InFlightWatch {
  private readonly refs = new Map<number, number>();
  private open = 0;

  constructor(private readonly trees: ForwardTrees) {}

  queued(cause: Cause): void {
    if (cause.crank < 0) return;
    this.refs.set(cause.crank, (this.refs.get(cause.crank) ?? 0) + 1);
    if (this.trees.has(cause.crank)) this.open += 1;
  }

  left(cause: Cause): void {
    const n = this.refs.get(cause.crank);
    if (n === undefined) return;
    if (n > 1) this.refs.set(cause.crank, n - 1);
    else this.refs.delete(cause.crank);
    if (this.trees.has(cause.crank)) this.open -= 1;
  }

  /** A crank joined the tree: its items in flight are the tree's now. */
  joined(crankNum: number): void {
    this.open += this.refs.get(crankNum) ?? 0;
  }

  /** The tree has begun and nothing in flight can add to it. */
  get closed(): boolean {
    return this.trees.size > 0 && this.open === 0;
  }
}

/** What a set of cranks did, in the walkthrough's terms: `138 cranks in 8 vats; ... ; 31 ms`. */
export interface TreeSummary {
  cranks: number;
  vats: { vatName: string; cranks: number; messages: number; notifications: number; other: number }[];
  /** From the first crank's start to the last one's end, µs (undefined: times unknown). */
  micros: number | undefined;
}

export function summaryOf(steps: Iterable<Step>): TreeSummary {
  const byVat = new Map<string, TreeSummary['vats'][number]>();
  let cranks = 0;
  let first = Infinity;
  let last = -Infinity;
  for (const step of steps) {
    cranks += 1;
    let row = byVat.get(step.vatName);
    if (!row) byVat.set(step.vatName, (row = { vatName: step.vatName, cranks: 0, messages: 0, notifications: 0, other: 0 }));
    row.cranks += 1;
    if (step.delivery === 'message') row.messages += 1;
    else if (step.delivery === 'notify') row.notifications += 1;
    else row.other += 1;
    if (step.time !== undefined) first = Math.min(first, step.time);
    const end = step.finish ?? step.time;
    if (end !== undefined) last = Math.max(last, end);
  }
  const vats = [...byVat.values()].sort((a, b) => b.cranks - a.cranks || (a.vatName < b.vatName ? -1 : 1));
  return { cranks, vats, micros: Number.isFinite(first) && Number.isFinite(last) ? Math.round((last - first) * 1e6) : undefined };
}
