/**
 * The cranks a later delivery may trace its causes back to (`slogulate why
 * CRANK`): a delivery crank's step is kept while something refers to it,
 * an item it put in flight (in-flight.ts) or a kept step whose cause it is;
 * when nothing does, it goes, and so does its hold on its own cause. What
 * is kept is the ancestry of what is in flight, never the whole slog.
 */
import type { Cause } from './cause.js';
import type { InFlightWatch } from './in-flight.js';
import type { RunPlace, Step } from './step.js';

/** How a chain of causes ends. */
export type ChainEnd =
  /** The run's trigger (no crank of the slog queued the first step: a bridge message, the mailbox, the timer...). */
  | { kind: 'trigger'; run: RunPlace }
  /** Outside every run: the kernel or a device (bootstrap, a device's callback). */
  | { kind: 'outside'; trigger: string | undefined }
  /** The slog starts after the act that queued the first step. */
  | { kind: 'before-slog' }
  /** The first step was queued in an earlier run (left over, or waiting on a promise): this run's trigger. */
  | { kind: 'earlier run'; cause: Cause; run: RunPlace };

export interface CauseChain {
  /** From the crank asked about back to the first step. */
  steps: Step[];
  end: ChainEnd;
}

export class Ancestry implements InFlightWatch {
  private readonly refs = new Map<number, number>();
  private readonly steps = new Map<number, Step>();
  /** Items that left while a crank was read: released once its step holds its own cause. */
  private released: number[] = [];

  queued(cause: Cause): void {
    if (cause.crank >= 0) this.refs.set(cause.crank, (this.refs.get(cause.crank) ?? 0) + 1);
  }

  left(cause: Cause): void {
    if (cause.crank >= 0) this.released.push(cause.crank);
  }

  /** Steps kept (the bound on memory). */
  get size(): number {
    return this.steps.size;
  }

  /**
   * A crank was read (`crankNum` a delivery crank, with `make` for its
   * step; undefined for any other): its step is kept when something refers
   * to it, or `keep` (the crank asked about).
   */
  read(crankNum: number | undefined, make: (() => Step) | undefined, keep: boolean): Step | undefined {
    let step: Step | undefined;
    if (crankNum !== undefined && make && (keep || (this.refs.get(crankNum) ?? 0) > 0)) {
      step = make();
      this.steps.set(crankNum, step);
      this.queued(step.cause);
    }
    const released = this.released;
    this.released = [];
    for (const crank of released) this.release(crank);
    return step;
  }

  private release(first: number): void {
    let crank = first;
    for (;;) {
      const refs = (this.refs.get(crank) ?? 0) - 1;
      if (refs > 0) {
        this.refs.set(crank, refs);
        return;
      }
      this.refs.delete(crank);
      const step = this.steps.get(crank);
      if (!step) return;
      this.steps.delete(crank);
      if (step.cause.crank < 0) return;
      crank = step.cause.crank;
    }
  }

  /** The chain of causes from `step` back to its run's trigger (or the slog's first crank, or the slog's start). */
  chain(step: Step): CauseChain {
    const steps = [step];
    let at = step;
    for (;;) {
      const cause = at.cause;
      if (cause.kind === 'before-slog') return { steps, end: { kind: 'before-slog' } };
      if (cause.crank < 0) {
        return { steps, end: at.run ? { kind: 'trigger', run: at.run } : { kind: 'outside', trigger: cause.trigger } };
      }
      const before = this.steps.get(cause.crank);
      if (step.run && before?.run?.key !== step.run.key) return { steps, end: { kind: 'earlier run', cause, run: step.run } };
      if (!before) return { steps, end: { kind: 'before-slog' } };
      steps.push(before);
      at = before;
    }
  }
}
