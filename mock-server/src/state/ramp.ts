/** State of the ramp surface; part of the one store (see ../store.ts). */
export function createRampState() {
  return {};
}

export type RampState = ReturnType<typeof createRampState>;
