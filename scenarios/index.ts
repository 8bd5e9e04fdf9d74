// Every scenario the CLI knows, by name. Add a scenario: one file, one line here.
import type { Scenario } from "../lab/scenario.js";
import fixedFixture from "./fixed-fixture.js";
import nested from "./nested.js";
import prefetch from "./prefetch.js";

export const SCENARIOS: readonly Scenario[] = [nested, prefetch, fixedFixture];

export function findScenario(name: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}
