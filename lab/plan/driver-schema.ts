// The driver contract as JSON Schema, generated from the one zod definition of each (SessionPlan,
// DriverEvent), for drivers in other languages. Written into build/ by the set-up; a test fails
// when the committed zod and the written schema disagree.
import { z } from "zod";
import { SessionPlan } from "./behaviour.js";
import { DriverEvent } from "./driver-events.js";

export const SESSION_PLAN_SCHEMA_FILE = "session-plan.schema.json";
export const DRIVER_EVENT_SCHEMA_FILE = "driver-event.schema.json";

export function driverSchemas(): Record<string, unknown> {
  return {
    [SESSION_PLAN_SCHEMA_FILE]: z.toJSONSchema(SessionPlan, { io: "input" }),
    [DRIVER_EVENT_SCHEMA_FILE]: z.toJSONSchema(DriverEvent),
  };
}
