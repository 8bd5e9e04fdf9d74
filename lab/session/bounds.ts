// Bounds: no wait in the lab is open-ended.
export const CALL_TIMEOUT_MS = 15_000;
export const SESSION_BOUND_MS = 30_000;
/** A child may take its 5 s grace, the kill wait and the drain wait: 15 s bounds them all. */
export const TRANSPORT_CLOSE_BOUND_MS = 15_000;
