// Client peer driver `java-sync`: the MCP Java SDK's McpSyncClient (McpClient.sync), the SDK's blocking client,
// on the same plan parser, event writer and transport as `java` (Main.java, OwnStdio.java).
// CLI: java -cp java.jar lab.Sync --plan PLAN.json --events EVENTS.jsonl, or --host (Host.java). Public API only: McpClient.sync, McpSyncClient,
// McpSchema records, McpError; its callbacks are plain functions that block, as the SyncSpec takes them.
package lab;

import static lab.Main.map;
import static lab.Main.with;

import io.modelcontextprotocol.client.*;
import io.modelcontextprotocol.spec.*;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;

final class Sync implements Main.Session {
  final Main.Plan plan; final Main.Events events;
  final OwnStdio transport;
  McpSyncClient client; // built here, or by a Spring AI context around this session (lab/peers/jvm/spring-ai)
  final AtomicInteger callbacks = new AtomicInteger();
  final Map<String, Set<CompletableFuture<Void>>> running = new ConcurrentHashMap<>();
  // the threads a blocking caller runs its bounded calls on (the tools/call it may give up on, a nested request)
  final ExecutorService callers = Executors.newCachedThreadPool(r -> { Thread t = new Thread(r, "caller"); t.setDaemon(true); return t; });
  volatile Set<String> listed = Set.of();
  volatile CompletableFuture<Void> formOpened;

  public static void main(String[] args) { Main.launch(args, "java-sync driver", Sync::new); }

  Sync(Main.Plan plan, Main.Events events, OwnStdio transport) {
    this(plan, events, transport, false);
    var spec = McpClient.sync(transport).clientInfo(new McpSchema.Implementation("reentrancy-lab-client-java-sync", "0.1.0"));
    McpSchema.ClientCapabilities caps = Json.capabilities(plan.capabilities());
    // build() wraps each sync handler in Mono.fromCallable(...).subscribeOn(Schedulers.boundedElastic()) (McpClientFeatures.java:206-214)
    if (caps.elicitation() != null) spec = spec.elicitation(this::elicitation); // McpClient.java:322
    if (caps.sampling() != null) spec = spec.sampling(this::sampling); // McpClient.java:307
    client = declare(spec).build();
  }
  /** The session without its client: whoever builds one sets `client` before run(). */
  Sync(Main.Plan plan, Main.Events events, OwnStdio transport, boolean unbuilt) {
    this.plan = plan; this.events = events; this.transport = transport;
  }
  /** The plan's capabilities, its limits and its roots on a sync spec (the handlers are the builder's). */
  McpClient.SyncSpec declare(McpClient.SyncSpec spec) {
    McpSchema.ClientCapabilities caps = Json.capabilities(plan.capabilities());
    // the same one limit per client as the async client's: SyncSpec hands requestTimeout to McpAsyncClient (McpClient.java:219, :561)
    spec = spec.capabilities(caps).requestTimeout(Duration.ofMillis(plan.callTimeoutMs())).initializationTimeout(Duration.ofMillis(plan.callTimeoutMs()));
    if (caps.roots() != null) {
      spec = spec.roots(Requests.SYNTHETIC_ROOTS); // a list, as the async client's (McpClient.java:274); answered by McpAsyncClient.java:564-572
      events.write("note", null, null, map("roots", "a static list the SDK answers itself: no roots callback"));
    }
    return spec;
  }

  /** The form callback, a plain blocking function: it runs on a boundedElastic thread, never the reading thread. */
  ElicitResult elicitation(McpSchema.ElicitFormRequest request) {
    OwnStdio.Seen seen = transport.seen(request, McpSchema.METHOD_ELICITATION_CREATE);
    int n = callbacks.incrementAndGet(); String call = seen.call(); Object id = seen.id();
    Map<String, Object> where = map("n", n, "call", call);
    events.write("callback.entered", id, "elicitation/create", where);
    Optional.ofNullable(formOpened).ifPresent(f -> f.complete(null));
    CompletableFuture<Void> done = track(call);
    Main.Behaviour b = plan.calls().stream().filter(c -> c.label().equals(call)).findFirst().map(Main.Call::callback).orElse(null);
    try {
      // no behaviour for this call: the answer of a client that cannot elicit (as client.py)
      if (b == null) throw new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(-32600, "Elicitation not supported", null));
      Main.Answer a = behave(b);
      ElicitResult r = new ElicitResult(ElicitResult.Action.valueOf(a.action().toUpperCase(Locale.ROOT)), a.content());
      events.write("callback.left", id, "elicitation/create", with(where, "action", a.action()));
      return r;
    } catch (InterruptedException e) {
      // an interrupt is the only abort a blocking callback can see; the session never cancels a handler (McpClientSession.java:174)
      if (b.watchAbort()) events.write("callback.aborted", id, "elicitation/create", with(where, "reason", "its thread was interrupted"));
      events.write("callback.left", id, "elicitation/create", with(where, "error", "interrupted"));
      throw new CancellationException("interrupted");
    } catch (RuntimeException e) {
      events.write("callback.left", id, "elicitation/create", with(where, "error", e.getClass().getSimpleName() + ": " + e.getMessage()));
      throw e;
    } finally {
      done.complete(null);
    }
  }
  Main.Answer behave(Main.Behaviour b) throws InterruptedException {
    Main.Answer otherwise = b.otherwise() != null ? b.otherwise() : new Main.Answer("cancel", null);
    if (b.delayMs() > 0) Thread.sleep(b.delayMs()); // the plan's think time, on the callback's own thread
    Optional<Set<String>> asked = b.nested() == null ? Optional.of(listed) : nested(b.nested());
    return asked.isEmpty() || (b.needTool() != null && !asked.get().contains(b.needTool())) ? otherwise : b.answer();
  }

  /** The sampling callback (as Requests.plainTurn, blocking): enter, think, nest, leave with the synthetic completion. */
  McpSchema.CreateMessageResult sampling(McpSchema.CreateMessageRequest request) {
    String method = McpSchema.METHOD_SAMPLING_CREATE_MESSAGE;
    OwnStdio.Seen seen = transport.seen(request, method);
    int n = callbacks.incrementAndGet(); String call = seen.call(); Object id = seen.id();
    Map<String, Object> where = map("n", n, "call", call);
    events.write("callback.entered", id, method, where);
    Requests.Turn turn = plan.calls().stream().filter(c -> c.label().equals(call)).findFirst().map(Main.Call::sampling).orElse(null);
    if (turn == null) {
      events.write("callback.left", id, method, with(where, "error", "McpError: no " + method + " callback planned"));
      throw new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(-32600, "no " + method + " planned for this call", null));
    }
    CompletableFuture<Void> done = track(call);
    try {
      if (turn.delayMs() > 0) Thread.sleep(turn.delayMs());
      if (turn.nested() != null) nested(turn.nested()); // a failure changes nothing else
      events.write("callback.left", id, method, with(where, "action", "accept"));
      return Requests.COMPLETION;
    } catch (InterruptedException e) {
      events.write("callback.left", id, method, with(where, "error", "interrupted"));
      throw new CancellationException("interrupted");
    } finally {
      done.complete(null);
    }
  }
  CompletableFuture<Void> track(String call) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    running.computeIfAbsent(call, k -> ConcurrentHashMap.newKeySet()).add(done);
    return done;
  }

  /** The driver's one nested path (nested.sent, then nested.ok or nested.failed). McpSyncClient has no per-request limit
   *  (listTools() and ping() are block() with none, McpSyncClient.java:219, :248): the callback waits for the blocking call
   *  at most the plan's timeoutMs, and on timeout interrupts it, which disposes its subscription (Reactor 3.7.0
   *  BlockingSingleSubscriber.java:93-96), as the async driver's timeout operator does. */
  Optional<Set<String>> nested(Main.Nested nested) throws InterruptedException {
    events.write("nested.sent", null, nested.method(), null);
    Future<Set<String>> sent = callers.submit(() -> {
      if (nested.method().equals("tools/list")) return Main.names(client.listTools().tools());
      client.ping();
      return listed;
    });
    try {
      Set<String> names = sent.get(nested.timeoutMs(), TimeUnit.MILLISECONDS);
      events.write("nested.ok", null, nested.method(), null);
      return Optional.of(names);
    } catch (ExecutionException | TimeoutException e) {
      sent.cancel(true);
      events.write("nested.failed", null, nested.method(), Main.errorDetail(e instanceof ExecutionException x ? x.getCause() : e));
      return Optional.empty();
    }
  }

  /** One tools/call as tool.result records it: McpSyncClient.callTool blocks its caller (McpSyncClient.java:236-237), so it
   *  runs on a caller thread; giveUpAfterMs, counted from the call's first form opening, interrupts that thread: the
   *  blocking caller's one way to give up, and block() then disposes the subscription (BlockingSingleSubscriber.java:93-96). */
  Map<String, Object> callTool(Main.Call call) throws Exception {
    CompletableFuture<Void> opened = formOpened = new CompletableFuture<>();
    CompletableFuture<Map<String, Object>> outcome = new CompletableFuture<>();
    Future<?> caller = callers.submit(() -> {
      try {
        McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(call.tool(), call.args(), null));
        outcome.complete(map("result", r.structuredContent(), "isError", Boolean.TRUE.equals(r.isError())));
      } catch (RuntimeException e) {
        outcome.complete(map("error", map("code", Main.errorDetail(e).get("code"), "message", Main.oneLine(e))));
      }
    });
    long bound = plan.callTimeoutMs() + Main.BACKSTOP_MS;
    try {
      if (call.giveUpAfterMs() != null) {
        CompletableFuture.anyOf(opened, outcome).get(bound, TimeUnit.MILLISECONDS);
        if (!outcome.isDone()) {
          try { return outcome.get(call.giveUpAfterMs(), TimeUnit.MILLISECONDS); } catch (TimeoutException e) {
            caller.cancel(true);
            return map("error", map("code", null, "message", "CancellationException: " + Main.GIVE_UP_REASON + " (its blocked caller was interrupted)"));
          }
        }
      }
      return outcome.get(bound, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      caller.cancel(true);
      return map("error", map("code", null, "message", "TimeoutException: the driver's backstop ended the wait"));
    } finally {
      formOpened = null;
    }
  }

  @Override public void close() { callers.shutdownNow(); } // a hosted session leaves no thread behind

  public void run() throws Exception {
    // initialize() and listTools() are block() with no bound of their own (McpSyncClient.java:190, :248): the client's
    // initializationTimeout and requestTimeout bound them
    McpSchema.InitializeResult init = client.initialize();
    events.write("note", null, null, map("server", init.serverInfo() != null ? init.serverInfo().name() : "?"));
    if (plan.listToolsFirst()) listed = Main.names(client.listTools().tools());
    for (Main.Call call : plan.calls()) {
      transport.call = call.label();
      events.write("call.started", null, null, map("call", call.label()));
      Map<String, Object> detail = map("call", call.label());
      detail.putAll(callTool(call));
      events.write("tool.result", null, null, detail);
      // a call that gave up may leave its form open: the next call waits for it (bounded)
      if (call.awaitCallbacks()) CompletableFuture.allOf(running.getOrDefault(call.label(), Set.of()).toArray(CompletableFuture[]::new)).get(plan.callTimeoutMs(), TimeUnit.MILLISECONDS);
    }
    // McpSyncClient.closeGracefully blocks up to 10 s and answers false instead of throwing (McpSyncClient.java:148-156)
    events.write("note", null, null, map("sessionClosed", client.closeGracefully()));
  }
}
