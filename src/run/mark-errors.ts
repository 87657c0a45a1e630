/**
 * A sink wrapper that turns a round-mark error thrown inside the pass
 * (analyses/common/rounds.ts) into a UsageError, which the command line reports as
 * a usage error (exit 2, one line). It passes `spill` on only when the inner
 * sink spills (model/assembler.ts), `abandoned` when it takes them, and
 * its answers.
 */
import { forwardSpill, type SinkAnswer } from '../model/assembler.js';
import type { Crank } from '../model/crank.js';
import type { ExecutionSink } from '../model/executions.js';
import type { SlogEntry } from '../scan/entry-types.js';
import { RoundMarkError } from '../analyses/common/rounds.js';
import { UsageError } from './usage-error.js';

export class MarkErrors implements ExecutionSink {
  /** The inner sink's, when it spills. */
  readonly spill: ((crank: Crank) => void) | undefined;
  readonly syscallsUnread: boolean | undefined;
  readonly partsUnread: boolean | undefined;
  constructor(private readonly inner: ExecutionSink) {
    this.syscallsUnread = inner.syscallsUnread;
    this.partsUnread = inner.partsUnread;
    const spill = forwardSpill(inner);
    this.spill = spill && ((crank) => this.guard(() => spill(crank)));
  }
  abandoned(crank: Crank): void {
    this.guard(() => this.inner.abandoned?.(crank));
  }
  entry(entry: SlogEntry, line: number): SinkAnswer {
    return this.guard(() => this.inner.entry(entry, line));
  }
  crank(crank: Crank): SinkAnswer {
    return this.guard(() => this.inner.crank(crank));
  }
  private guard(f: () => SinkAnswer): SinkAnswer {
    try {
      return f();
    } catch (err) {
      if (err instanceof RoundMarkError) throw new UsageError(err.message);
      throw err;
    }
  }
}
