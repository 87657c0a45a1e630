/**
 * A delivery crank as `why` and `sequence` show it: its vat, what it
 * received as the text render prints it, when it ran, its cause, and the
 * chain run it ran in. Made from the crank while it is read: the crank is
 * not kept.
 */
import { triggerText } from '../../model/chain.js';
import { crankStartTime, type Crank } from '../../model/crank.js';
import type { RenderContext } from '../../render/context.js';
import { crankVatName } from '../../render/crank-text.js';
import { deliveryLines } from '../../render/delivery-lines.js';
import type { Cause, DeliveryCause } from './cause.js';

/** The chain run a crank ran in. */
export interface RunPlace {
  /** `block 73 run 2` */
  key: string;
  /** `block 73 run 2 (inbound)` */
  text: string;
  /** The run's trigger in words (`mailbox agoric1x (2)`, `timer`). */
  trigger: string;
}

export interface Step extends DeliveryCause {
  /** `v46 walletFactory`, and the crank's annotation label. */
  vatName: string;
  label: string | undefined;
  /** What it received, as the render prints it (`deliver: @ko29 <- register("bob", @ko30): @kp45`). */
  line: string;
  /** When it ended (seconds; undefined: unfinished). */
  finish: number | undefined;
  run: RunPlace | undefined;
}

/** The run of a crank, undefined outside runs (a slog without a chain). */
export function runPlace(crank: Crank): RunPlace | undefined {
  const run = crank.run;
  const block = crank.block;
  if (!run || !block) return block?.bootstrap ? { key: 'bootstrap block', text: 'the bootstrap block', trigger: 'bootstrap' } : undefined;
  const key = `block ${Number.isNaN(block.height) ? '?' : block.height} run ${Number.isNaN(run.num) ? '?' : run.num}`;
  return { key, text: `${key} (${run.phase})`, trigger: triggerText(run.trigger) };
}

/** The step of a delivery crank whose cause was found. */
export function stepOf(ctx: RenderContext, crank: Crank, cause: DeliveryCause): Step {
  const vctx = ctx.inVat(crank.vatID);
  const lines = crank.deliver ? deliveryLines(vctx, crank.deliver) : [];
  return {
    ...cause,
    vatName: `${cause.vatID ?? '?'} ${crankVatName(ctx, crank)}`,
    label: ctx.annotations.crankLabels.get(crank.crankNum),
    line: lines.join('; '),
    finish: crank.finish?.time,
    run: runPlace(crank),
  };
}

/**
 * The step of a routing crank (CauseFinder.routed): what it moved
 * (`line`: its message, `send: @ko27 <- createTimerService(@kd32): @kp41`)
 * and what queued that; `routing` where a delivery's vat is.
 */
export function routingStep(ctx: RenderContext, crank: Crank, routed: { type: string; cause: Cause }, line: string): Step {
  const time = crankStartTime(crank);
  const { cause } = routed;
  const queueMicros = time !== undefined && cause.time !== undefined && cause.crank >= 0 ? Math.round((time - cause.time) * 1e6) : undefined;
  return {
    crankNum: crank.crankNum,
    vatID: undefined,
    delivery: `routing ${routed.type}`,
    time,
    cause,
    queueMicros,
    vatName: 'routing',
    label: ctx.annotations.crankLabels.get(crank.crankNum),
    line,
    finish: crank.finish?.time,
    run: runPlace(crank),
  };
}
