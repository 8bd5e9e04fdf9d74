// The java driver's JSON: the SDK's own mapper, never a JSON library by name, so one source builds against every
// release that has a mapper, whichever Jackson it brings (Jackson 2 before 1.0, 3 from 1.0: java-history.ts).
package lab;

import io.modelcontextprotocol.json.*;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.*;
import java.util.*;

final class Json {
  private Json() {}
  /** The SDK's default mapper (McpJsonDefaults from 1.0): the driver's one, OwnStdio's too. */
  static final McpJsonMapper JSON = McpJsonDefaults.getMapper();
  /** A JSON text as plain values: Map (LinkedHashMap), List, String, Integer, Long, Double, Boolean or null. */
  static Object parse(String text) throws IOException { return JSON.readValue(text, Object.class); }
  static String write(Object value) {
    try { return JSON.writeValueAsString(value); } catch (IOException e) { throw new UncheckedIOException(e); }
  }
  /** Whether the SDK's elicitation capability has its form and url modes (mcp-core 0.17.2 McpSchema.ClientCapabilities
   *  .Elicitation(Form, Url)); false only in the history's copies for releases before 0.17 (java-history.ts SHIMS), whose
   *  record has none (0.16.0: Elicitation()) and refuses them: they declare elicitation as 2025-06-18 has it, {}. */
  static final boolean ELICITATION_MODES = true;
  /** The plan's capabilities as the SDK's own record, by its own mapper. */
  static McpSchema.ClientCapabilities capabilities(Map<String, Object> declared) {
    Map<String, Object> caps = new LinkedHashMap<>(declared);
    if (!ELICITATION_MODES && caps.get("elicitation") instanceof Map<?, ?>) caps.put("elicitation", Map.of());
    return JSON.convertValue(caps, McpSchema.ClientCapabilities.class);
  }
}
