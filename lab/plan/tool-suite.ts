// The tool suite every server peer implements, as far as the scenarios rely on it: the policies
// `calculate` takes and the default of `fan_out`. The form itself and its valid answer are in
// form.ts. The Python servers (lab/peers/py/server.py, lab/peers/py1/server.py, lab/peers/fastmcp/server.py)
// keep the same numbers in their own language; their expectations say so.

/**
 * validated: the careful path: guard on the declared capability, SDK elicitInput, then the
 *            app's own strict zod check; only a valid accept computes.
 * raw:       low-level request, reports the raw action and content, never computes.
 * unchecked: diagnostic: skips the capability guard on purpose and sends the raw request.
 * url:       URL mode (ts1 only, lab/peers/ts1/url-mode.ts): asks the client to open a link; an
 *            accept means only that the user agreed to open it; never computes.
 */
export const POLICIES = ["validated", "raw", "unchecked", "url"] as const;
export type Policy = (typeof POLICIES)[number];

/** How many elicitations `fan_out` sends at once when not told. */
export const FAN_OUT_DEFAULT = 8;

/** How many sampling requests `sample_fan_out` sends at once when not told (python-sdk #2489: five). */
export const SAMPLING_FAN_OUT_DEFAULT = 5;

/** The request a receive-loop probe (probe_receive_loop, probe_sampling) keeps pending while it
 *  pings: a client's loop may treat them differently (py-inline serializes elicitation only). */
export type ProbedMethod = "elicitation/create" | "sampling/createMessage";
