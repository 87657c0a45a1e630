/**
 * A sequence diagram's content, from the steps of a selection (why/step.ts),
 * in slog order: the vats as participants in order of first appearance,
 * and one arrow per delivery crank, from what queued it to the vat that
 * received it: a message from the sending vat (solid), a notify from the
 * resolving vat (dashed), a bringOutYourDead, GC action or startVat from
 * the vat whose crank it followed (open arrow), and what no crank of the
 * slog queued from outside (the run's trigger, the kernel, the slog's start).
 */
import type { Step } from '../why/step.js';

/** Where an arrow starts when no vat sent it. */
export const OUTSIDE = 'outside';

export interface Participant {
  /** A vat ID, or OUTSIDE. */
  id: string;
  /** `v6 board`, `trigger`. */
  label: string;
}

export type ArrowStyle = 'message' | 'notify' | 'kernel';

export interface Arrow {
  from: string;
  to: string;
  style: ArrowStyle;
  /** `register("bob", @ko30): @kp45`, `fulfilled: @kp46 := @ko31`, `bringOutYourDead`; `crank N` first. */
  label: string;
}

export interface Diagram {
  participants: Participant[];
  arrows: Arrow[];
}

/** Arguments longer than this print cut, with `…`. */
const ARGS_WIDTH = 60;

/** A delivery line made short: the method and short arguments with the result promise; other lines cut to a width. */
export function shortLabel(line: string): string {
  const m = /^deliver: \S+ <- (.*)$/s.exec(line);
  const body = m ? (m[1] as string) : line;
  if (body.length <= ARGS_WIDTH + 20) return body;
  const call = /^([^(]*)\((.*)\)(: \S+)$/s.exec(body);
  if (!call) return `${body.slice(0, ARGS_WIDTH + 20)}…`;
  const args = call[2] as string;
  return `${call[1]}(${args.length > ARGS_WIDTH ? `${args.slice(0, ARGS_WIDTH)}…` : args})${call[3]}`;
}

function styleOf(step: Step): ArrowStyle {
  return step.delivery === 'message' ? 'message' : step.delivery === 'notify' ? 'notify' : 'kernel';
}

/** The diagram of these steps (in slog order). */
export function diagramOf(steps: readonly Step[]): Diagram {
  const participants: Participant[] = [];
  const seen = new Set<string>();
  const names = new Map<string, string>();
  for (const step of steps) if (step.vatID !== undefined) names.set(step.vatID, step.vatName);
  const meet = (id: string, label: string): void => {
    if (seen.has(id)) return;
    seen.add(id);
    participants.push({ id, label });
  };
  const arrows: Arrow[] = [];
  for (const step of steps) {
    const to = step.vatID ?? '?';
    const cause = step.cause;
    let from: string;
    if (cause.crank < 0 || cause.vat === undefined) {
      from = OUTSIDE;
      const trigger = cause.kind === 'before-slog' ? 'before the slog' : (step.run?.trigger ?? cause.trigger ?? 'kernel or device');
      meet(OUTSIDE, trigger === 'kernel or device' ? trigger : `trigger: ${trigger}`);
    } else {
      from = cause.vat;
      meet(from, names.get(from) ?? from);
    }
    meet(to, step.vatName);
    arrows.push({ from, to, style: styleOf(step), label: `${step.crankNum}: ${shortLabel(step.line)}` });
  }
  return { participants, arrows };
}
