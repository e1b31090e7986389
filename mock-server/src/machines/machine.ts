import { HttpError } from '../http/errors.js';

/**
 * A state machine as data: `table[state][event]` is the next state. What has no row is
 * not allowed, and `transition` refuses it (409 INVALID_STATE) instead of ignoring it.
 */
export type Machine<S extends string, E extends string = string> = Readonly<Record<S, Readonly<Partial<Record<E, S>>>>>;

export function canTransition<S extends string, E extends string>(machine: Machine<S, E>, from: S, event: E): boolean {
  return machine[from]?.[event] !== undefined;
}

export function transition<S extends string, E extends string>(machine: Machine<S, E>, from: S, event: E): S {
  const next = machine[from]?.[event];
  if (next === undefined) {
    throw new HttpError(409, 'INVALID_STATE', `cannot ${event.replace(/_/g, ' ')} when status is ${from}`);
  }
  return next;
}
