// Client peer driver `java` (the MCP Java SDK's McpAsyncClient) speaking MCP over its own stdin/stdout.
// It executes a SessionPlan (lab/plan/behaviour.ts) and writes DriverEvent lines (lab/plan/driver-events.ts).
// CLI: java -jar java.jar --plan PLAN.json --events EVENTS.jsonl, or --host (Host.java). Public API only: McpClient.async, the
// McpClientTransport interface, McpSchema records, McpError, the SDK's JSON mapper (McpJsonDefaults); Reactor is the API those methods return.
package lab;

import io.modelcontextprotocol.client.*;
import io.modelcontextprotocol.spec.*;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.function.Function;
import reactor.core.*;
import reactor.core.publisher.*;

public final class Main {
  static final int CLOSE_WAIT_MS = 500, BACKSTOP_MS = 1_000;
  static final String GIVE_UP_REASON = "the client gave up on the call while its form was open"; // lab/peers/perform.ts's words
  static final Set<String> KINDS = Set.of("call.started", "callback.entered", "callback.left", "callback.aborted", "nested.sent",
      "nested.ok", "nested.failed", "tool.result", "protocol.negotiated", "round.input_required", "round.answered", "note");

  // ---- the plan, parsed strictly (the twin of lab/peers/jvm/kotlin/Plan.kt) ----
  record Answer(String action, Map<String, Object> content) {}
  record Nested(String method, int timeoutMs) {}
  record Behaviour(int delayMs, Nested nested, String needTool, Answer answer, Answer otherwise, boolean watchAbort) {}
  record Call(String label, String tool, Map<String, Object> args, Behaviour callback, Integer giveUpAfterMs, boolean awaitCallbacks, Requests.Turn sampling, Requests.Turn roots) {}
  record Plan(String scenario, Map<String, Object> capabilities, boolean listToolsFirst, List<Call> calls, int callTimeoutMs) {}
  static final class BadPlan extends RuntimeException { BadPlan(String m) { super(m); } }
  /** One object's fields: unknown or missing ones refuse the plan with their path. */
  record Fields(Map<String, Object> o, String at) {
    @SuppressWarnings("unchecked")
    static Fields of(Object v, String at, Set<String> allowed, Set<String> required) {
      if (!(v instanceof Map<?, ?> m)) throw new BadPlan(at + ": expected an object");
      Map<String, Object> o = (Map<String, Object>) m;
      for (String k : o.keySet()) if (!allowed.contains(k)) throw new BadPlan(at + "." + k + ": unknown field");
      for (String k : required) if (!o.containsKey(k)) throw new BadPlan(at + "." + k + ": required");
      return new Fields(o, at);
    }
    boolean has(String k) { return o.containsKey(k); }
    Object get(String k) { return o.get(k); }
    String oneOf(String k, Set<String> allowed, String words) { String v = str(k, 0); if (allowed.contains(v)) return v; else throw bad(k, "expected " + words); }
    BadPlan bad(String k, String why) { return new BadPlan(at + "." + k + ": " + why); }
    @SuppressWarnings("unchecked") Map<String, Object> obj(String k) {
      if (o.get(k) instanceof Map<?, ?> m) return new LinkedHashMap<>((Map<String, Object>) m); else throw bad(k, "expected an object");
    }
    String str(String k, int min) {
      if (o.get(k) instanceof String s && s.length() >= min) return s;
      throw bad(k, "expected a string" + (min > 0 ? " of at least " + min + " character" : ""));
    }
    boolean bool(String k) { if (o.get(k) instanceof Boolean b) return b; else throw bad(k, "expected a boolean"); }
    /** An integer that fits an int: the mapper reads one as Integer (a larger one as Long or BigInteger). */
    int integer(String k, int min, int max) {
      if (!(o.get(k) instanceof Integer v)) throw bad(k, "expected an integer");
      if (v < min || v > max) throw bad(k, v + " is out of range " + min + ".." + max); else return v;
    }
  }
  static Answer answer(Object e, String at) {
    Fields f = Fields.of(e, at, Set.of("action", "content"), Set.of("action"));
    String action = f.oneOf("action", Set.of("accept", "decline", "cancel"), "accept, decline or cancel");
    // content with decline/cancel is kept: ElicitResult's constructor checks only the action (McpSchema.java:5025-5027)
    return new Answer(action, f.has("content") ? f.obj("content") : null);
  }
  static Behaviour behaviour(Object e, String at) {
    Fields f = Fields.of(e, at, Set.of("delayMs", "nested", "needTool", "answer", "otherwise", "watchAbort"), Set.of("answer"));
    Nested nested = f.has("nested") ? Requests.nested(f.get("nested"), at + ".nested") : null;
    return new Behaviour(f.has("delayMs") ? f.integer("delayMs", 0, 10_000) : 0, nested, f.has("needTool") ? f.str("needTool", 0) : null,
        answer(f.get("answer"), at + ".answer"), f.has("otherwise") ? answer(f.get("otherwise"), at + ".otherwise") : null,
        f.has("watchAbort") && f.bool("watchAbort"));
  }
  static Plan parsePlan(String text) {
    Object root;
    try { root = Json.parse(text); } catch (IOException | RuntimeException e) { throw new BadPlan("not JSON: " + String.valueOf(e.getMessage()).lines().findFirst().orElse("")); }
    Set<String> top = Set.of("scenario", "capabilities", "listToolsFirst", "calls", "callTimeoutMs");
    Fields f = Fields.of(root, "$", top, top);
    if (!(f.get("calls") instanceof List<?> list)) throw new BadPlan("$.calls: expected an array");
    List<Call> calls = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String at = "$.calls[" + i + "]";
      Fields g = Fields.of(list.get(i), at, Set.of("label", "tool", "args", "callback", "giveUpAfterMs", "awaitCallbacks", "sampling", "roots"), Set.of("label"));
      calls.add(new Call(g.str("label", 1), g.has("tool") ? g.str("tool", 0) : "calculate", g.has("args") ? g.obj("args") : Map.of(),
          g.has("callback") ? behaviour(g.get("callback"), at + ".callback") : null, g.has("giveUpAfterMs") ? g.integer("giveUpAfterMs", 1, 60_000) : null,
          g.has("awaitCallbacks") && g.bool("awaitCallbacks"), g.has("sampling") ? Requests.turn(g.get("sampling"), at + ".sampling") : null,
          g.has("roots") ? Requests.turn(g.get("roots"), at + ".roots") : null));
    }
    if (calls.isEmpty()) throw new BadPlan("$.calls: expected at least one call");
    return new Plan(f.str("scenario", 1), f.obj("capabilities"), f.bool("listToolsFirst"), calls, f.integer("callTimeoutMs", 1, Integer.MAX_VALUE));
  }

  /** The one writer of driver events. t_ns: System.nanoTime(), CLOCK_MONOTONIC in OpenJDK on Linux (the lab's clock). */
  static final class Events {
    private final PrintWriter out; // autoflush: each line is whole when the lab reads it
    Events(String path) throws IOException { out = new PrintWriter(Files.newBufferedWriter(Path.of(path), StandardCharsets.UTF_8), true); }
    private boolean stopped;
    synchronized void write(String kind, Object id, String method, Map<String, Object> detail) {
      if (!KINDS.contains(kind)) throw new IllegalArgumentException("not a driver event kind: " + kind);
      if (stopped) return;
      Map<String, Object> line = map("t_ns", System.nanoTime(), "kind", kind);
      if (id != null) line.put("id", id);
      if (method != null) line.put("method", method);
      if (detail != null) line.put("detail", detail);
      out.println(Json.write(line));
    }
    synchronized void close() { out.close(); }
    /** The lab killed the session (Host.java): nothing more is written. */
    synchronized void stop() { stopped = true; out.close(); }
  }
  static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
    return m;
  }
  static Map<String, Object> with(Map<String, Object> m, String k, Object v) { Map<String, Object> c = new LinkedHashMap<>(m); c.put(k, v); return c; }
  static Set<String> names(List<McpSchema.Tool> tools) { Set<String> s = new HashSet<>(); tools.forEach(t -> s.add(t.name())); return s; }
  static Duration backstop(int ms) { return Duration.ofMillis(ms + BACKSTOP_MS); }

  /** The driver's classification of an SDK error: McpError carries the JSON-RPC error (McpError.java:32-41). */
  static Map<String, Object> errorDetail(Throwable t) {
    Throwable e = Exceptions.unwrap(t);
    Integer code = e instanceof McpError m && m.getJsonRpcError() != null ? m.getJsonRpcError().code() : null;
    return map("code", code, "message", String.valueOf(e.getMessage()), "type", e.getClass().getSimpleName());
  }
  // ---- the session ----
  static final class Driver implements Session {
    final Plan plan; final Events events;
    final OwnStdio transport;
    final McpAsyncClient client;
    final AtomicInteger callbacks = new AtomicInteger();
    final Map<String, Set<CompletableFuture<Void>>> running = new ConcurrentHashMap<>();
    volatile Set<String> listed = Set.of();
    volatile CompletableFuture<Void> formOpened;
    Driver(Plan plan, Events events, OwnStdio transport) {
      this.plan = plan; this.events = events; this.transport = transport;
      McpSchema.ClientCapabilities caps = Json.capabilities(plan.capabilities());
      // requestTimeout is the SDK's one limit, per client, on every request it sends (McpClientSession.java:267)
      var spec = McpClient.async(transport).clientInfo(new McpSchema.Implementation("reentrancy-lab-client-java", "0.1.0")).capabilities(caps)
          .requestTimeout(Duration.ofMillis(plan.callTimeoutMs())).initializationTimeout(Duration.ofMillis(plan.callTimeoutMs()));
      // a form handler is required once elicitation is declared, and only then registered (McpAsyncClient.java:238-255)
      if (caps.elicitation() != null) spec = spec.elicitation(this::elicitation);
      spec = Requests.register(this, caps, spec);
      client = spec.build();
    }
    /** The elicitation callback: an async handler, so nothing here blocks the thread that reads stdin. */
    Mono<ElicitResult> elicitation(McpSchema.ElicitFormRequest request) {
      OwnStdio.Seen seen = transport.seen(request, McpSchema.METHOD_ELICITATION_CREATE);
      int n = callbacks.incrementAndGet(); String call = seen.call(); Object id = seen.id();
      Map<String, Object> where = map("n", n, "call", call);
      events.write("callback.entered", id, "elicitation/create", where);
      Optional.ofNullable(formOpened).ifPresent(f -> f.complete(null));
      CompletableFuture<Void> done = new CompletableFuture<>();
      running.computeIfAbsent(call, k -> ConcurrentHashMap.newKeySet()).add(done);
      Behaviour b = plan.calls().stream().filter(c -> c.label().equals(call)).findFirst().map(Call::callback).orElse(null);
      // no behaviour for this call: the answer of a client that cannot elicit (as client.py)
      Mono<Answer> steps = b == null ? Mono.error(new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(-32600, "Elicitation not supported", null))) : behave(b);
      return steps.map(a -> new ElicitResult(ElicitResult.Action.valueOf(a.action().toUpperCase(Locale.ROOT)), a.content()))
        .doOnNext(r -> events.write("callback.left", id, "elicitation/create", with(where, "action", r.action().name().toLowerCase(Locale.ROOT))))
        .doOnError(e -> events.write("callback.left", id, "elicitation/create", with(where, "error", e.getClass().getSimpleName() + ": " + e.getMessage())))
        .doOnCancel(() -> {
          // a cancelled subscription is the only abort a Reactor handler can see; the session never cancels one
          if (b != null && b.watchAbort()) events.write("callback.aborted", id, "elicitation/create", with(where, "reason", "its subscription was cancelled"));
          events.write("callback.left", id, "elicitation/create", with(where, "error", "cancelled"));
        }).doFinally(s -> done.complete(null));
    }
    Mono<Answer> behave(Behaviour b) {
      Answer otherwise = b.otherwise() != null ? b.otherwise() : new Answer("cancel", null);
      Mono<Set<String>> known = Mono.fromSupplier(() -> listed);
      Mono<Void> think = b.delayMs() > 0 ? Mono.delay(Duration.ofMillis(b.delayMs())).then() : Mono.empty(); // the plan's think time
      Mono<Optional<Set<String>>> asked = b.nested() == null ? known.map(Optional::of) : nested(b.nested());
      return think.then(asked).map(o -> o.isEmpty() || (b.needTool() != null && !o.get().contains(b.needTool())) ? otherwise : b.answer());
    }
    /** The driver's one nested path (nested.sent, then nested.ok or nested.failed): the names it listed, empty when it failed. */
    Mono<Optional<Set<String>>> nested(Nested nested) {
      return Mono.defer(() -> {
        events.write("nested.sent", null, nested.method(), null);
        // the SDK bounds a request only by the client's requestTimeout; this one's own limit is the same
        // Reactor operator the session applies (McpClientSession.java:267), on the Mono the SDK returns
        Mono<Set<String>> sent = nested.method().equals("tools/list") ? client.listTools().map(r -> names(r.tools())) : client.ping().then(Mono.fromSupplier(() -> listed));
        return sent.timeout(Duration.ofMillis(nested.timeoutMs()))
            .map(s -> { events.write("nested.ok", null, nested.method(), null); return Optional.of(s); })
            .onErrorResume(e -> { events.write("nested.failed", null, nested.method(), errorDetail(e)); return Mono.just(Optional.<Set<String>>empty()); });
      });
    }
    /** One tools/call as tool.result records it. giveUpAfterMs, counted from the call's first form opening:
     *  dispose the subscription to callTool's Mono, the only way to give up the SDK's API leaves. */
    Map<String, Object> callTool(Call call) throws InterruptedException, ExecutionException {
      CompletableFuture<Void> opened = formOpened = new CompletableFuture<>();
      CompletableFuture<Map<String, Object>> outcome = new CompletableFuture<>();
      Disposable sent = client.callTool(new McpSchema.CallToolRequest(call.tool(), call.args(), null)).subscribe(
          r -> outcome.complete(map("result", r.structuredContent(), "isError", Boolean.TRUE.equals(r.isError()))),
          e -> outcome.complete(map("error", map("code", errorDetail(e).get("code"), "message", oneLine(e)))));
      Disposable timer = call.giveUpAfterMs() == null ? null : Mono.fromFuture(opened).then(Mono.delay(Duration.ofMillis(call.giveUpAfterMs()))).subscribe(x -> {
        sent.dispose(); // what the SDK does on that cancel is its own: McpClientSession.java:258-267 registers no onCancel
        outcome.complete(map("error", map("code", null, "message", "CancellationException: " + GIVE_UP_REASON + " (its subscription was disposed)")));
      });
      try {
        return outcome.get(plan.callTimeoutMs() + BACKSTOP_MS, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        sent.dispose();
        return map("error", map("code", null, "message", "TimeoutException: the driver's backstop ended the wait"));
      } finally {
        if (timer != null) timer.dispose();
        formOpened = null;
      }
    }

    public void run() throws Exception {
      McpSchema.InitializeResult init = client.initialize().block(backstop(plan.callTimeoutMs()));
      events.write("note", null, null, map("server", init.serverInfo() != null ? init.serverInfo().name() : "?"));
      if (plan.listToolsFirst()) listed = names(client.listTools().block(backstop(plan.callTimeoutMs())).tools());
      for (Call call : plan.calls()) {
        transport.call = call.label();
        events.write("call.started", null, null, map("call", call.label()));
        Map<String, Object> detail = map("call", call.label());
        detail.putAll(callTool(call));
        events.write("tool.result", null, null, detail);
        // a call that gave up may leave its form open: the next call waits for it (bounded)
        if (call.awaitCallbacks()) CompletableFuture.allOf(running.getOrDefault(call.label(), Set.of()).toArray(CompletableFuture[]::new)).get(plan.callTimeoutMs(), TimeUnit.MILLISECONDS);
      }
      // closeGracefully: the session dismisses what is pending, then the transport closes stdout (EOF for the server)
      boolean closed = true;
      try { client.closeGracefully().block(Duration.ofMillis(CLOSE_WAIT_MS)); } catch (RuntimeException e) { closed = false; }
      events.write("note", null, null, map("sessionClosed", closed));
    }
  }

  static String oneLine(Throwable t) {
    Throwable e = Exceptions.unwrap(t);
    return (e.getClass().getSimpleName() + ": " + (e.getMessage() == null ? "" : e.getMessage())).replaceAll("\\s+", " ").trim();
  }
  /** A session's own streams: the process's (a fresh run) or its three connections (a hosted one, Host.java);
   *  a hosted session the lab kills writes no event after the kill, as a killed process would not. */
  static final class Io {
    final InputStream in; final OutputStream out; final PrintStream err;
    private Events events; private boolean killed;
    Io(InputStream in, OutputStream out, PrintStream err) { this.in = in; this.out = out; this.err = err; }
    synchronized void attach(Events e) { events = e; if (killed) e.stop(); }
    synchronized void kill() { killed = true; if (events != null) events.stop(); }
  }
  /** A session the driver runs: McpAsyncClient's (Driver) or McpSyncClient's (Sync). */
  interface Session { void run() throws Exception; default void close() {} }
  interface Factory { Session make(Plan plan, Events events, OwnStdio transport); }
  public static void main(String[] args) { launch(args, "java driver", Driver::new); }
  /** `--host`: the session-host mode (Host.java); otherwise one session on the process's own streams. */
  static void launch(String[] args, String who, Factory factory) {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"); // the SDK's warnings, on stderr
    if (args.length == 1 && args[0].equals("--host")) { Host.serve(who, (argv, io) -> session(argv, who, factory, io)); return; }
    System.exit(session(args, who, factory, new Io(System.in, new FileOutputStream(FileDescriptor.out), System.err)));
  }
  /** One session, as a process runs it, on the streams given: its exit status (2: bad arguments, a bad plan, an events
   *  file that cannot be written, each one line on its stderr; 1: the session failed). */
  static int session(String[] args, String who, Factory factory, Io io) {
    Map<String, String> given = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) given.put(args[i], args[i + 1]);
    if (args.length != 4 || !given.keySet().equals(Set.of("--plan", "--events"))) return refuse(io, who, "usage: --plan PLAN.json --events EVENTS.jsonl");
    Plan plan; Events events;
    try { plan = parsePlan(Files.readString(Path.of(given.get("--plan")))); } catch (IOException | RuntimeException e) {
      return refuse(io, who, "bad plan " + given.get("--plan") + ": " + (e instanceof BadPlan ? e.getMessage() : oneLine(e)));
    }
    try { events = new Events(given.get("--events")); } catch (IOException e) { return refuse(io, who, "cannot write " + given.get("--events") + ": " + oneLine(e)); }
    io.attach(events);
    int code = 0;
    Session session = null;
    try {
      session = factory.make(plan, events, new OwnStdio(io));
      session.run();
    } catch (Throwable e) {
      events.write("note", null, null, map("sessionError", errorDetail(e)));
      io.err.println(who + ": session failed: " + oneLine(e));
      code = 1;
    } finally {
      events.close();
      if (session != null) session.close();
    }
    return code; // a fresh run exits with it: Reactor's schedulers may hold threads
  }
  static int refuse(Io io, String who, String line) { io.err.println(who + ": " + line); return 2; }
}
