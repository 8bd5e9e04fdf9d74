// The strands-ts peer's adapter for the TypeScript driver core (lab/peers/node22/driver.ts), which runs
// it under Node 22 in a process of its own: client.ts's session over the driver's own stdin/stdout.
import { runDriver, type TsAdapter } from "../node22/driver.js";
import { runStrandsSession, strandsRefusal } from "./client.js";

export const adapter: TsAdapter = { prog: "strands-ts", refusal: strandsRefusal, run: runStrandsSession };

void runDriver(adapter);
