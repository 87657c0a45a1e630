/**
 * Deliveries and computrons by what triggered the chain run they ran in
 * (`slogulate stats`, model/chain.ts): a bridge message (by source and
 * message type), a mailbox delivery, the timer, a bundle install, or the
 * phase's own work (leftover, cleanup, bootstrap...). Cranks that ran in no
 * run of a chain slog are `<no run>`. Mailbox senders are not told apart,
 * so that the keys stay few: memory is one row per source and message type.
 */
import type { RunTrigger } from '../../model/chain.js';
import type { Crank } from '../../model/crank.js';
import { byText } from '../common/text-order.js';

/** The row of cranks that ran outside every run (in a slog that has runs). */
export const NO_RUN = '<no run>';

export interface TriggerStats {
  /** `bridge wallet WALLET_SPEND_ACTION`, `mailbox`, `timer`, `leftover`, `<no run>`... */
  trigger: string;
  kind: string;
  source?: string;
  messageType?: string;
  cranks: number;
  /** Deliveries (a deliver and its deliver-result), as the aggregate counts them. */
  deliveries: number;
  /** Sum of the finished cranks' times, µs. */
  crankTime: number;
  /** Sum of their computrons; absent when none reported any. */
  computrons?: number;
}

function keyOf(t: RunTrigger): { trigger: string; kind: string; source?: string; messageType?: string } {
  if (t.kind === 'bridge') {
    return {
      trigger: ['bridge', t.source, t.messageType].filter((x) => x !== undefined).join(' '),
      kind: t.kind,
      ...(t.source === undefined ? {} : { source: t.source }),
      ...(t.messageType === undefined ? {} : { messageType: t.messageType }),
    };
  }
  return { trigger: t.kind, kind: t.kind };
}

export class TriggerTally {
  private readonly rows = new Map<string, TriggerStats>();
  /** A crank ran in a run: the slog is a chain slog, the table is shown. */
  private sawRun = false;

  /** Counts a selected crank: its deliveries and computrons as the aggregate found them. */
  add(crank: Crank, deliveries: number, computrons: number | undefined): void {
    // The bootstrap block is one run, the bootstrap's: a slog that lacks its run-start (the contextual form) still says so.
    const trigger = crank.run?.trigger ?? (crank.block?.bootstrap ? { kind: 'bootstrap' } : undefined);
    const key = trigger ? keyOf(trigger) : { trigger: NO_RUN, kind: 'none' };
    if (trigger) this.sawRun = true;
    let row = this.rows.get(key.trigger);
    if (!row) {
      row = { ...key, cranks: 0, deliveries: 0, crankTime: 0 };
      this.rows.set(key.trigger, row);
    }
    row.cranks += 1;
    row.deliveries += deliveries;
    if (crank.finish && Number.isFinite(crank.timing.total)) row.crankTime += crank.timing.total * 1_000_000;
    if (computrons !== undefined) row.computrons = (row.computrons ?? 0) + computrons;
  }

  /** The rows by computrons, then deliveries, then name; none for a slog without runs. */
  result(): TriggerStats[] {
    if (!this.sawRun) return [];
    return [...this.rows.values()]
      .map((r) => ({ ...r }))
      .sort((a, b) => (b.computrons ?? 0) - (a.computrons ?? 0) || b.deliveries - a.deliveries || byText(a.trigger, b.trigger));
  }
}
