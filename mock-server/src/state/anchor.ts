/** State of the anchor surface; part of the one store (see ../store.ts). */
export function createAnchorState() {
  return {};
}

export type AnchorState = ReturnType<typeof createAnchorState>;
