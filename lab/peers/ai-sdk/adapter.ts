// The ai-sdk peer's adapter for the TypeScript driver core (lab/peers/node22/driver.ts), which runs it
// under Node 22 in a process of its own: client.ts's session over the driver's own stdin/stdout.
import { runDriver, type TsAdapter } from "../node22/driver.js";
import { aiSdkRefusal, runAiSdkSession } from "./client.js";
import { CaughtTransport } from "./transport.js";

export const adapter: TsAdapter = { prog: "ai-sdk-driver", refusal: aiSdkRefusal, run: (plan, transport, rec) => runAiSdkSession(plan, new CaughtTransport(transport), rec) };

void runDriver(adapter);
