// Every scenario the CLI knows, by name. Add a scenario: one file, one line here.
import type { Scenario } from "../lab/plan/scenario.js";
import callCancelled from "./call-cancelled.js";
import fanOut from "./fan-out.js";
import fixedFixture from "./fixed-fixture.js";
import liveness from "./liveness.js";
import nested from "./nested.js";
import prefetch from "./prefetch.js";
import rootsNested from "./roots-nested.js";
import samplingFanOut from "./sampling-fan-out.js";
import samplingNested from "./sampling-nested.js";
import serverWithdraws from "./server-withdraws.js";

export const SCENARIOS: readonly Scenario[] = [nested, prefetch, fixedFixture, fanOut, liveness, callCancelled, serverWithdraws, samplingFanOut, samplingNested, rootsNested];

export function findScenario(name: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}
