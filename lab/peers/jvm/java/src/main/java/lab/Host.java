// The java drivers' session-host mode (`--host`, lab/transports/hosts.md): one JVM runs many sessions, each on a thread
// of its own over three unix-socket connections the lab listens for, so a JVM starts once per lab process. Control is
// JSON lines: requests on stdin, replies on stdout, which carries nothing else (System.out is pointed at stderr).
package lab;

import java.io.*;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicBoolean;

final class Host {
  private Host() {}
  /** One session as a process would run it (Main.session): its exit status. */
  interface Runner { int run(String[] argv, Main.Io io); }
  /** how long a session's output may take to reach the lab after it ends */
  static final int DRAIN_MS = 5_000;

  /** An OutputStream whose bytes a thread of its own writes to the connection, in order. A session's writers may be
   *  interrupted (a cancelled caller, a disposed handler), and an interrupted write to a SocketChannel closes it
   *  (AbstractInterruptibleChannel); a process's stdout never closes that way, so the writing is not theirs. */
  static final class Pumped extends OutputStream {
    private static final byte[] END = new byte[0];
    private final BlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
    private final Thread pump;
    private volatile boolean closed, killed;
    Pumped(SocketChannel channel, String name) {
      OutputStream raw = Channels.newOutputStream(channel);
      pump = new Thread(() -> {
        try { for (byte[] b; (b = next()) != END; ) raw.write(b); } catch (IOException ignored) { /* the lab closed it */ }
        finally { try { channel.close(); } catch (IOException ignored) { } }
      }, name);
      pump.setDaemon(true);
      pump.start();
    }
    private byte[] next() { while (true) try { return queue.take(); } catch (InterruptedException e) { /* never interrupted */ } }
    @Override public void write(int b) throws IOException { write(new byte[] { (byte) b }, 0, 1); }
    @Override public void write(byte[] b, int off, int len) throws IOException {
      if (killed) return; // a killed process writes nothing: its abandoned work's writes go nowhere, without an error
      if (closed) throw new IOException("Stream Closed"); // as FileOutputStream after close
      queue.offer(Arrays.copyOfRange(b, off, off + len));
    }
    @Override public void close() { if (!closed) { closed = true; queue.offer(END); } }
    void drain(long ms) throws InterruptedException { close(); pump.join(ms); }
    void kill() { killed = true; close(); }
  }

  /** One hosted session: its connections, its thread, and whether its one ending reply has been sent. */
  static final class Hosted {
    final long id; final List<SocketChannel> channels = new CopyOnWriteArrayList<>(); final AtomicBoolean ended = new AtomicBoolean();
    volatile Thread thread; volatile Main.Io io; final List<Pumped> outputs = new CopyOnWriteArrayList<>();
    Hosted(long id) { this.id = id; }
    void closeAll() {
      Main.Io i = io;
      if (i != null) i.kill();
      outputs.forEach(Pumped::kill);
      for (SocketChannel c : channels) try { c.close(); } catch (IOException ignored) { }
      Thread t = thread;
      if (t != null) t.interrupt(); // the session's waits end; its events are already stopped
    }
  }

  private static final PrintStream REPLIES = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
  static void reply(Object... kv) { synchronized (REPLIES) { REPLIES.println(Json.write(Main.map(kv))); } }

  static SocketChannel connect(String socket, long id, String stream, Hosted h) throws IOException {
    SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
    h.channels.add(c);
    c.connect(UnixDomainSocketAddress.of(socket));
    Channels.newOutputStream(c).write((id + " " + stream + "\n").getBytes(StandardCharsets.UTF_8));
    return c;
  }

  static void run(Hosted h, String[] argv, String socket, Runner runner, String who) {
    Pumped out, err; InputStream in;
    try {
      in = Channels.newInputStream(connect(socket, h.id, "stdin", h));
      out = new Pumped(connect(socket, h.id, "stdout", h), "session-" + h.id + "-stdout");
      err = new Pumped(connect(socket, h.id, "stderr", h), "session-" + h.id + "-stderr");
    } catch (IOException | RuntimeException e) {
      h.closeAll();
      if (h.ended.compareAndSet(false, true)) reply("id", h.id, "error", "cannot connect to " + socket + ": " + Main.oneLine(e));
      return;
    }
    h.outputs.addAll(List.of(out, err));
    Main.Io io = h.io = new Main.Io(in, out, new PrintStream(err, true, StandardCharsets.UTF_8));
    if (h.ended.get()) { h.closeAll(); return; } // killed while connecting
    reply("id", h.id, "pid", ProcessHandle.current().pid(), "hosted", true);
    int code;
    try { code = runner.run(argv, io); } catch (RuntimeException e) { io.err.println(who + ": session failed: " + Main.oneLine(e)); code = 1; }
    try { io.err.flush(); out.drain(DRAIN_MS); err.drain(DRAIN_MS); } catch (InterruptedException e) { /* killed: its reply is sent */ }
    for (SocketChannel c : h.channels) try { c.close(); } catch (IOException ignored) { }
    if (h.ended.compareAndSet(false, true)) reply("id", h.id, "exit", code, "signal", null);
  }

  /** Serve requests until stdin ends, then end the sessions still running and exit 0. */
  static void serve(String who, Runner runner) {
    System.setOut(System.err); // a stray println must not reach the control channel
    Map<Long, Hosted> live = new ConcurrentHashMap<>();
    try (BufferedReader control = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line; (line = control.readLine()) != null; ) {
        if (line.isBlank()) continue;
        Map<?, ?> req;
        try { req = Json.parse(line) instanceof Map<?, ?> m ? m : null; } catch (IOException | RuntimeException e) { req = null; }
        if (req == null) { System.err.println(who + ": host: not a JSON object: " + line); continue; }
        if (!(req.get("id") instanceof Integer || req.get("id") instanceof Long)) { System.err.println(who + ": host: no id: " + line); continue; }
        long id = ((Number) req.get("id")).longValue();
        if (req.containsKey("kill")) {
          Hosted h = live.get(id); // an unknown or ended session is ignored
          if (h != null && h.ended.compareAndSet(false, true)) {
            h.closeAll();
            reply("id", id, "exit", null, "signal", String.valueOf(req.get("kill")));
          }
          continue;
        }
        if (!(req.get("argv") instanceof List<?> argv) || !(req.get("socket") instanceof String socket) || live.containsKey(id)) {
          reply("id", id, "error", "a request needs a new id, argv (strings) and socket (a path)");
          continue;
        }
        String[] args = argv.stream().map(String::valueOf).toArray(String[]::new);
        Hosted h = new Hosted(id);
        live.put(id, h);
        Thread t = new Thread(() -> { try { run(h, args, socket, runner, who); } finally { live.remove(id); } }, "session-" + id);
        h.thread = t;
        t.setDaemon(true);
        t.start();
      }
    } catch (IOException e) {
      System.err.println(who + ": host: stdin: " + Main.oneLine(e));
    }
    live.values().forEach(Hosted::closeAll);
    System.exit(0);
  }
}
