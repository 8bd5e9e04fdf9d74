// The java drivers' McpClientTransport over the session's stdin/stdout (peers `java` and `java-sync`): the process's own,
// or a hosted session's connections (Host.java).
package lab;

import io.modelcontextprotocol.json.*;
import io.modelcontextprotocol.spec.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import reactor.core.publisher.*;

/** The SDK's McpClientTransport over this process's own stdin/stdout: StdioClientTransport always starts a
 *  server process (StdioClientTransport.java:135-170, ProcessBuilder :146), so this is its reading and writing
 *  without one: a reader thread emits each line into a unicast sink whose flatMap hands it to the session
 *  (as StdioClientTransport.java:245-251, 278-298). It notes each inbound request's id by method: the SDK
 *  hands a callback only the request's params. It also ties the id to the very object unmarshalFrom builds from
 *  that request's params (the session subscribes to the handler on the reading thread, McpClientSession.java:152-174,
 *  and the handler unmarshals first, McpAsyncClient.java:580, :588), so
 *  a callback that runs later on another thread (a sync handler, McpClientFeatures.java:210-214) finds its own id. */
final class OwnStdio implements McpClientTransport {
  final McpJsonMapper mapper = Json.JSON; // the driver's one default mapper
  final Sinks.Many<McpSchema.JSONRPCMessage> inbound = Sinks.many().unicast().onBackpressureBuffer();
  final Map<String, Object> lastId = new ConcurrentHashMap<>();
  final Map<Object, Seen> seenOf = Collections.synchronizedMap(new IdentityHashMap<>());
  /** A callback's request as the reading thread saw it: its id, and the call the driver was in then. */
  record Seen(Object id, String call) {}
  volatile String call = ""; // the driver's current call, set by the driver before each tools/call
  final InputStream input; final OutputStream out; final PrintStream err; // the session's (Main.Io)
  OwnStdio(Main.Io io) { input = io.in; out = io.out; err = io.err; }
  volatile Object reading; // the id of the request being handed to the session, on the reading thread
  volatile boolean closing;
  @Override public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return Mono.fromRunnable(() -> {
      inbound.asFlux().flatMap(m -> Mono.just(m).transform(handler)).subscribe();
      Thread reader = new Thread(this::read, "stdin-reader");
      reader.setDaemon(true); // a blocking read of stdin must not keep the process alive
      reader.start();
    });
  }
  private void read() {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8))) {
      for (String line; !closing && (line = in.readLine()) != null; ) {
        McpSchema.JSONRPCMessage m = McpSchema.deserializeJsonRpcMessage(mapper, line);
        boolean request = m instanceof McpSchema.JSONRPCRequest r && r.id() != null;
        if (request) lastId.put(((McpSchema.JSONRPCRequest) m).method(), ((McpSchema.JSONRPCRequest) m).id());
        reading = request ? ((McpSchema.JSONRPCRequest) m).id() : null;
        inbound.tryEmitNext(m);
        reading = null;
      }
    } catch (IOException | RuntimeException e) {
      if (!closing) err.println("java driver: stdin: " + e);
    } finally {
      inbound.tryEmitComplete();
    }
  }
  @Override public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    return Mono.fromCallable(() -> (mapper.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8))
        .doOnNext(line -> { synchronized (out) { try { out.write(line); out.flush(); } catch (IOException e) { throw new UncheckedIOException(e); } } }).then();
  }
  @Override public Mono<Void> closeGracefully() {
    // the server sees EOF; the reader stays in its blocking read until the lab closes our stdin
    return Mono.fromRunnable(() -> { closing = true; synchronized (out) { try { out.close(); } catch (IOException ignored) { } } });
  }
  @Override public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
    T value = mapper.convertValue(data, typeRef);
    Object id = reading;
    // only the callbacks' arguments: the roots handler's request is built and dropped by the SDK (McpAsyncClient.java:567)
    boolean callback = value instanceof McpSchema.ElicitRequest || value instanceof McpSchema.CreateMessageRequest;
    if (id != null && callback && Thread.currentThread().getName().equals("stdin-reader")) seenOf.put(value, new Seen(id, call));
    return value;
  }
  /** The request the SDK built this callback argument from (taken once: the map holds nothing for long). */
  Seen seen(Object request, String method) { Seen s = seenOf.remove(request); return s != null ? s : new Seen(lastId.get(method), call); }
}
