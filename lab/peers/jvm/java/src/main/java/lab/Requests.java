// The java driver's answers to the server's other requests (issue #29): a sampling callback, and the roots
// the SDK answers by itself. Public API only: McpClient.AsyncSpec.sampling / .roots and McpSchema records,
// read in ~/.m2 mcp-core-2.0.1-sources.jar.
package lab;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.function.Function;
import reactor.core.publisher.Mono;

final class Requests {
  private Requests() {}
  /** What the callback does for each request during a call (lab/plan/behaviour.ts SamplingBehaviour, RootsBehaviour). */
  record Turn(int delayMs, Main.Nested nested) {}
  static Turn turn(Object e, String at) {
    Main.Fields f = Main.Fields.of(e, at, Set.of("delayMs", "nested"), Set.of("delayMs"));
    return new Turn(f.integer("delayMs", 0, 10_000), f.has("nested") ? nested(f.get("nested"), at + ".nested") : null);
  }
  static Main.Nested nested(Object e, String at) {
    Main.Fields n = Main.Fields.of(e, at, Set.of("method", "timeoutMs"), Set.of("method", "timeoutMs"));
    return new Main.Nested(n.oneOf("method", Set.of("tools/list", "ping"), "tools/list or ping"), n.integer("timeoutMs", 1, 60_000));
  }
  // lab/plan/behaviour.ts SYNTHETIC_COMPLETION's and SYNTHETIC_ROOTS's words: no model is called
  static final String SYNTHETIC_TEXT = "synthetic completion (no model was called)", SYNTHETIC_MODEL = "lab-synthetic";
  static final List<McpSchema.Root> SYNTHETIC_ROOTS = List.of(new McpSchema.Root("file:///synthetic/lab-root-a", "lab-root-a"),
      new McpSchema.Root("file:///synthetic/lab-root-b", "lab-root-b"));

  /** Declares sampling and roots exactly when the plan does: the capabilities go out as given (McpClient.java:664), and
   *  McpAsyncClient registers a handler for sampling/createMessage only when they include sampling, which then requires a
   *  sampling handler (McpAsyncClient.java:228-236), and for roots/list only when they include roots (:223-226). */
  static McpClient.AsyncSpec register(Main.Driver d, McpSchema.ClientCapabilities caps, McpClient.AsyncSpec spec) {
    if (caps.sampling() != null) spec = spec.sampling(request -> sampling(d, request)); // McpClient.java:726
    if (caps.roots() != null) {
      // the SDK's roots are a list, not a callback: McpClient.java:693 takes it, and the roots/list handler answers
      // Mono.just of it (McpAsyncClient.java:564-572), so no driver code runs for a roots/list and the plan's roots turn
      // (think time, nested request) cannot happen: there is no callback to record
      spec = spec.roots(SYNTHETIC_ROOTS);
      d.events.write("note", null, null, Main.map("roots", "a static list the SDK answers itself: no roots callback"));
    }
    return spec;
  }

  /** The sampling callback: the plain turn, then the synthetic completion as the SDK's own CreateMessageResult. */
  static Mono<CreateMessageResult> sampling(Main.Driver d, McpSchema.CreateMessageRequest request) {
    return plainTurn(d, request, McpSchema.METHOD_SAMPLING_CREATE_MESSAGE, Main.Call::sampling).thenReturn(COMPLETION);
  }
  static final CreateMessageResult COMPLETION = new CreateMessageResult(McpSchema.Role.ASSISTANT, new McpSchema.TextContent(SYNTHETIC_TEXT),
      SYNTHETIC_MODEL, CreateMessageResult.StopReason.END_TURN);

  /** One callback's steps (as lab/peers/py/sampling.py plain_turn): enter, think for the call's planned time, send the
   *  planned nested request through the driver's one nested path, leave. No plan for the call: leave with an error and
   *  answer one (-32600, as client.py). An async handler: nothing here blocks the thread that reads stdin. */
  static Mono<Void> plainTurn(Main.Driver d, Object request, String method, Function<Main.Call, Turn> which) {
    OwnStdio.Seen seen = d.transport.seen(request, method);
    int n = d.callbacks.incrementAndGet(); String call = seen.call(); Object id = seen.id();
    Map<String, Object> where = Main.map("n", n, "call", call);
    d.events.write("callback.entered", id, method, where);
    Turn plan = d.plan.calls().stream().filter(c -> c.label().equals(call)).findFirst().map(which).orElse(null);
    if (plan == null) {
      d.events.write("callback.left", id, method, Main.with(where, "error", "McpError: no " + method + " callback planned"));
      return Mono.error(new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(-32600, "no " + method + " planned for this call", null)));
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    d.running.computeIfAbsent(call, k -> ConcurrentHashMap.newKeySet()).add(done);
    Mono<Void> think = plan.delayMs() > 0 ? Mono.delay(Duration.ofMillis(plan.delayMs())).then() : Mono.empty();
    Mono<Void> nested = plan.nested() == null ? Mono.empty() : d.nested(plan.nested()).then(); // a failure changes nothing else
    return think.then(nested).doOnSuccess(x -> d.events.write("callback.left", id, method, Main.with(where, "action", "accept")))
        .doFinally(s -> done.complete(null));
  }
}
