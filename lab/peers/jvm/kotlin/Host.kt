// The Kotlin driver's session-host mode (`--host`, lab/transports/hosts.md), and its one session given
// its streams: one JVM runs many sessions, each on a thread of its own over three unix-socket
// connections the lab listens for, so a JVM starts once per lab process. Control is JSON lines:
// requests on stdin, replies on stdout, which carries nothing else (System.out is pointed at stderr).
// The twin of lab/peers/jvm/java/src/main/java/lab/Host.java.
package lab

import kotlinx.coroutines.runBlocking
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.contentOrNull
import kotlinx.serialization.json.longOrNull
import kotlinx.serialization.json.put
import java.io.File
import java.io.FileDescriptor
import java.io.FileOutputStream
import java.io.IOException
import java.io.InputStream
import java.io.OutputStream
import java.io.PrintStream
import java.net.StandardProtocolFamily
import java.net.UnixDomainSocketAddress
import java.nio.channels.Channels
import java.nio.channels.SocketChannel
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.atomic.AtomicBoolean
import kotlin.system.exitProcess

/** how long a session's output may take to reach the lab after it ends */
const val DRAIN_MS = 5_000L

/** A session's own streams: the process's (a fresh run) or its three connections (a hosted one, Host.kt);
 *  a hosted session the lab kills writes no event after the kill, as a killed process would not. */
class Io(val input: InputStream, val output: OutputStream, val err: PrintStream) {
    private var events: Events? = null
    private var killed = false

    @Synchronized
    fun attach(e: Events) { events = e; if (killed) e.stop() }

    @Synchronized
    fun kill() { killed = true; events?.stop() }
}

/** One session, as a process runs it, on the streams given: its exit status (2: bad arguments or a bad
 *  plan, each one line on its stderr; 1: the session failed). */
fun session(args: Array<String>, io: Io): Int {
    val given = args.toList().chunked(2).associate { it[0] to it.getOrNull(1) }
    val planPath = given["--plan"]
    val eventsPath = given["--events"]
    if (planPath == null || eventsPath == null || args.size != 4 || given.keys != setOf("--plan", "--events")) {
        io.err.println("kotlin driver: usage: --plan PLAN.json --events EVENTS.jsonl")
        return 2
    }
    val plan = try {
        parsePlan(File(planPath).readText())
    } catch (e: Exception) {
        io.err.println("kotlin driver: bad plan $planPath: ${e.message}")
        return 2
    }
    val events = Events(eventsPath)
    io.attach(events)
    return try {
        runBlocking { Driver(plan, events, io).run() }
        0
    } catch (e: Throwable) {
        events.write("note", detail = buildJsonObject { put("sessionError", errorDetail(e)) })
        io.err.println("kotlin driver: session failed: ${oneLine(e)}")
        1
    } finally {
        events.close()
    }
}

/** An OutputStream whose bytes a thread of its own writes to the connection, in order: an interrupted
 *  write to a SocketChannel closes it (AbstractInterruptibleChannel), a process's stdout never does. */
class Pumped(channel: SocketChannel, name: String) : OutputStream() {
    private val queue = LinkedBlockingQueue<ByteArray>()
    @Volatile private var closed = false
    @Volatile private var killed = false
    private val pump = Thread({
        val raw = Channels.newOutputStream(channel)
        try {
            while (true) { val b = next(); if (b === END) break; raw.write(b) }
        } catch (_: IOException) { // the lab closed it
        } finally { try { channel.close() } catch (_: IOException) {} }
    }, name).apply { isDaemon = true; start() }

    private fun next(): ByteArray { while (true) try { return queue.take() } catch (_: InterruptedException) {} }
    override fun write(b: Int) = write(byteArrayOf(b.toByte()), 0, 1)
    override fun write(b: ByteArray, off: Int, len: Int) {
        if (killed) return // a killed process writes nothing: its abandoned work's writes go nowhere, without an error
        if (closed) throw IOException("Stream Closed") // as FileOutputStream after close
        queue.offer(b.copyOfRange(off, off + len))
    }
    override fun close() { if (!closed) { closed = true; queue.offer(END) } }
    fun drain(ms: Long) { close(); pump.join(ms) }
    fun kill() { killed = true; close() }

    private companion object { val END = ByteArray(0) }
}

/** One hosted session: its connections, its thread, and whether its one ending reply has been sent. */
class Hosted(val id: Long) {
    val channels = CopyOnWriteArrayList<SocketChannel>()
    val ended = AtomicBoolean()
    @Volatile var thread: Thread? = null
    @Volatile var io: Io? = null
    val outputs = CopyOnWriteArrayList<Pumped>()
    fun closeAll() {
        io?.kill()
        outputs.forEach { it.kill() }
        channels.forEach { try { it.close() } catch (_: IOException) {} }
        thread?.interrupt() // runBlocking cancels the session; its events are already stopped
    }
}

private val replies = PrintStream(FileOutputStream(FileDescriptor.out), true, Charsets.UTF_8)

fun reply(vararg kv: Pair<String, Any?>) {
    val line = JsonObject(kv.associate { (k, v) -> k to when (v) { null -> JsonNull; is Number -> JsonPrimitive(v); is Boolean -> JsonPrimitive(v); else -> JsonPrimitive(v.toString()) } })
    synchronized(replies) { replies.println(line.toString()) }
}

fun connect(socket: String, h: Hosted, stream: String): SocketChannel {
    val c = SocketChannel.open(StandardProtocolFamily.UNIX)
    h.channels.add(c)
    c.connect(UnixDomainSocketAddress.of(socket))
    Channels.newOutputStream(c).write("${h.id} $stream\n".toByteArray(Charsets.UTF_8))
    return c
}

fun hosted(h: Hosted, argv: Array<String>, socket: String, runner: (Array<String>, Io) -> Int) {
    val input: InputStream; val out: Pumped; val err: Pumped
    try {
        input = Channels.newInputStream(connect(socket, h, "stdin"))
        out = Pumped(connect(socket, h, "stdout"), "session-${h.id}-stdout")
        err = Pumped(connect(socket, h, "stderr"), "session-${h.id}-stderr")
    } catch (e: Exception) {
        h.closeAll()
        if (h.ended.compareAndSet(false, true)) reply("id" to h.id, "error" to "cannot connect to $socket: ${oneLine(e)}")
        return
    }
    h.outputs.addAll(listOf(out, err))
    val io = Io(input, out, PrintStream(err, true, Charsets.UTF_8)).also { h.io = it }
    if (h.ended.get()) { h.closeAll(); return } // killed while connecting
    reply("id" to h.id, "pid" to ProcessHandle.current().pid(), "hosted" to true)
    val code = try { runner(argv, io) } catch (e: Exception) { io.err.println("kotlin driver: session failed: ${oneLine(e)}"); 1 }
    try { io.err.flush(); out.drain(DRAIN_MS); err.drain(DRAIN_MS) } catch (_: InterruptedException) { /* killed: its reply is sent */ }
    h.channels.forEach { try { it.close() } catch (_: IOException) {} }
    if (h.ended.compareAndSet(false, true)) reply("id" to h.id, "exit" to code, "signal" to null)
}

private fun JsonElement?.text(): String? = (this as? JsonPrimitive)?.takeIf { it.isString }?.contentOrNull

/** Serve requests until stdin ends, then end the sessions still running and exit 0. */
fun serve(runner: (Array<String>, Io) -> Int): Nothing {
    System.setOut(System.err) // a stray println must not reach the control channel
    val live = ConcurrentHashMap<Long, Hosted>()
    try {
        System.`in`.bufferedReader(Charsets.UTF_8).forEachLine { line ->
            if (line.isBlank()) return@forEachLine
            val req = try { Json.parseToJsonElement(line) as JsonObject } catch (e: Exception) {
                System.err.println("kotlin driver: host: not a JSON object: $line"); return@forEachLine
            }
            val id = (req["id"] as? JsonPrimitive)?.takeIf { !it.isString }?.longOrNull
            if (id == null) { System.err.println("kotlin driver: host: no id: $line"); return@forEachLine }
            if (req.containsKey("kill")) {
                val h = live[id] // an unknown or ended session is ignored
                if (h != null && h.ended.compareAndSet(false, true)) {
                    h.closeAll()
                    reply("id" to id, "exit" to null, "signal" to req["kill"].text())
                }
                return@forEachLine
            }
            val argv = (req["argv"] as? JsonArray)?.map { it.text() }
            val socket = req["socket"].text()
            if (argv == null || argv.any { it == null } || socket == null || live.containsKey(id)) {
                reply("id" to id, "error" to "a request needs a new id, argv (strings) and socket (a path)")
                return@forEachLine
            }
            val h = Hosted(id)
            live[id] = h
            h.thread = Thread({ try { hosted(h, argv.map { it!! }.toTypedArray(), socket, runner) } finally { live.remove(id) } }, "session-$id")
                .apply { isDaemon = true; start() }
        }
    } catch (e: IOException) {
        System.err.println("kotlin driver: host: stdin: ${oneLine(e)}")
    }
    live.values.forEach { it.closeAll() }
    exitProcess(0)
}
