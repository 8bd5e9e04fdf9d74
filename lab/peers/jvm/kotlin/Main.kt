// Client peer driver `kotlin-0.14` / `kotlin` (MCP Kotlin SDK, the coroutine Client) speaking MCP over
// the session's stdin/stdout: StdioClientTransport over them as kotlinx-io Source/Sink (the process's
// System.in/System.out, or a hosted session's connections).
// It executes a SessionPlan (lab/plan/behaviour.ts) and writes DriverEvent lines (lab/plan/driver-events.ts).
// CLI: java -jar kotlin-0.1x.jar --plan PLAN.json --events EVENTS.jsonl, or --host (Host.kt)
// One source compiled against each SDK version (lab/peers/jvm/kotlin-0.14, kotlin-0.16): public API only.
package lab

import io.modelcontextprotocol.kotlin.sdk.client.Client
import io.modelcontextprotocol.kotlin.sdk.client.ClientOptions
import io.modelcontextprotocol.kotlin.sdk.client.StdioClientTransport
import io.modelcontextprotocol.kotlin.sdk.shared.RequestOptions
import io.modelcontextprotocol.kotlin.sdk.shared.Transport
import io.modelcontextprotocol.kotlin.sdk.types.CallToolRequest
import io.modelcontextprotocol.kotlin.sdk.types.CallToolRequestParams
import io.modelcontextprotocol.kotlin.sdk.types.ClientCapabilities
import io.modelcontextprotocol.kotlin.sdk.types.ElicitRequest
import io.modelcontextprotocol.kotlin.sdk.types.ElicitResult
import io.modelcontextprotocol.kotlin.sdk.types.Implementation
import io.modelcontextprotocol.kotlin.sdk.types.JSONRPCError
import io.modelcontextprotocol.kotlin.sdk.types.JSONRPCMessage
import io.modelcontextprotocol.kotlin.sdk.types.JSONRPCNotification
import io.modelcontextprotocol.kotlin.sdk.types.JSONRPCRequest
import io.modelcontextprotocol.kotlin.sdk.types.JSONRPCResponse
import io.modelcontextprotocol.kotlin.sdk.types.McpException
import io.modelcontextprotocol.kotlin.sdk.types.McpJson
import io.modelcontextprotocol.kotlin.sdk.types.Method
import io.modelcontextprotocol.kotlin.sdk.types.RequestId
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.TimeoutCancellationException
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.withTimeoutOrNull
import kotlinx.io.asSink
import kotlinx.io.asSource
import kotlinx.io.buffered
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import java.io.File
import java.io.PrintWriter
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicInteger
import kotlin.system.exitProcess
import kotlin.time.Duration.Companion.milliseconds

// Why the client gave up on a call (CallData.giveUpAfterMs): the words of lab/peers/call-book.ts GIVE_UP_REASON.
const val CLOSE_WAIT_MS = 500
const val BACKSTOP_MS = 1_000
const val GIVE_UP_REASON = "the client gave up on the call while its form was open"
val CALLBACK_METHODS = setOf("elicitation/create", "sampling/createMessage", "roots/list")
val KINDS = setOf(
    "call.started", "callback.entered", "callback.left", "callback.aborted", "nested.sent", "nested.ok",
    "nested.failed", "tool.result", "protocol.negotiated", "round.input_required", "round.answered", "note",
    "frame.dispatched",
)

/** The one writer of driver events. t_ns: System.nanoTime(), CLOCK_MONOTONIC in OpenJDK on Linux
 *  (os_linux.cpp javaTimeNanos: clock_gettime(CLOCK_MONOTONIC)), the clock the lab and other drivers use. */
class Events(path: String) {
    private val out = PrintWriter(File(path).bufferedWriter())
    private var stopped = false

    @Synchronized
    fun write(kind: String, id: RequestId? = null, method: String? = null, detail: JsonObject? = null) {
        require(kind in KINDS) { "not a driver event kind: $kind" }
        if (stopped) return
        val line = buildJsonObject {
            put("t_ns", System.nanoTime())
            put("kind", kind)
            when (id) {
                is RequestId.NumberId -> put("id", id.value)
                is RequestId.StringId -> put("id", id.value)
                null -> {}
            }
            method?.let { put("method", it) }
            detail?.let { put("detail", it) }
        }
        out.println(line.toString())
        out.flush()
    }

    @Synchronized
    fun close() = out.close()

    /** The lab killed the session (Host.kt): nothing more is written. */
    @Synchronized
    fun stop() { stopped = true; out.close() }
}

fun errorDetail(e: Throwable): JsonObject = buildJsonObject {
    put("code", if (e is McpException) JsonPrimitive(e.code) else JsonNull)
    put("message", e.message ?: e.toString())
    put("type", e::class.simpleName ?: "Throwable")
}

/** The SDK's transport, observed: as its read loop hands each inbound frame to Protocol's onMessage
 *  (which that loop awaits: client StdioClientTransport.kt:171-176, :277-279) it writes frame.dispatched,
 *  one line, the moment the SDK takes the frame; and it notes the id of each inbound elicitation/create,
 *  sampling/createMessage and roots/list (per method). 0.14's RequestHandlerExtra carries no request id
 *  (Protocol.kt:136), and the handler is entered in the same call (inline in 0.14, UNDISPATCHED in 0.15). */
class Observed(
    private val inner: Transport,
    private val lastId: ConcurrentHashMap<String, RequestId>,
    private val events: Events,
) : Transport by inner {
    override fun onMessage(block: suspend (JSONRPCMessage) -> Unit) = inner.onMessage { message ->
        when (message) {
            is JSONRPCRequest -> {
                if (message.method in CALLBACK_METHODS) lastId[message.method] = message.id
                events.write("frame.dispatched", message.id, message.method)
            }
            is JSONRPCNotification -> events.write("frame.dispatched", method = message.method)
            is JSONRPCResponse -> events.write("frame.dispatched", message.id)
            is JSONRPCError -> events.write("frame.dispatched", message.id)
            else -> events.write("frame.dispatched")
        }
        block(message)
    }
}

/** Every SDK request with the SDK's own limit (RequestOptions.timeout) and, 1 s later, the driver's
 *  backstop (a coroutine withTimeout), so no wait is open-ended: in 0.14 the SDK's limit bounds only the
 *  send, not the wait for the reply (shared/Protocol.kt:503-509; fixed in 0.15.0, :856-859). Which one
 *  fired is in the error's type: McpException -32001 (the SDK's) or TimeoutCancellationException (ours). */
suspend fun <T> bounded(limitMs: Int, send: suspend (RequestOptions) -> T): T =
    withTimeout((limitMs + BACKSTOP_MS).milliseconds) { send(RequestOptions(timeout = limitMs.milliseconds)) }

class Driver(private val plan: Plan, private val events: Events, private val io: Io) {
    private val client = Client(
        Implementation("reentrancy-lab-client-kotlin", "0.1.0"),
        ClientOptions(capabilities = McpJson.decodeFromJsonElement(ClientCapabilities.serializer(), plan.capabilities)),
    )
    private val lastId = ConcurrentHashMap<String, RequestId>()
    private val callbacks = AtomicInteger(0)
    @Volatile private var label = ""
    @Volatile private var listed: Set<String> = emptySet()
    @Volatile private var formOpened: CompletableDeferred<Unit>? = null
    private val running = ConcurrentHashMap<String, MutableSet<CompletableDeferred<Unit>>>()
    private val limit = plan.callTimeoutMs.milliseconds

    /** The elicitation callback. Registered through Protocol.setRequestHandler (public, Protocol.kt:542):
     *  Client.setElicitationHandler takes a plain, non-suspending function (Client.kt:670), which could not
     *  await a nested request without blocking the thread. */
    private suspend fun elicitation(request: ElicitRequest): ElicitResult {
        val n = callbacks.incrementAndGet()
        val call = label
        val id = lastId["elicitation/create"]
        val where = buildJsonObject { put("n", n); put("call", call) }
        events.write("callback.entered", id, "elicitation/create", where)
        formOpened?.complete(Unit)
        val done = CompletableDeferred<Unit>()
        running.getOrPut(call) { ConcurrentHashMap.newKeySet() }.add(done)
        val behaviour = plan.calls.firstOrNull { it.label == call }?.callback
        try {
            // no behaviour for this call: the answer of a client that cannot elicit (as client.py)
            if (behaviour == null) throw McpException(-32600, "Elicitation not supported")
            val answer = behave(behaviour)
            val action = ElicitResult.Action.entries.first { it.name.lowercase() == answer.action }
            // built before callback.left: ElicitResult refuses content unless accept (elicitation.kt:181-185),
            // and its IllegalArgumentException is what the SDK then answers (an error, Protocol.kt onRequest)
            val result = ElicitResult(action, answer.content)
            events.write("callback.left", id, "elicitation/create", JsonObject(where + ("action" to JsonPrimitive(answer.action))))
            return result
        } catch (e: CancellationException) {
            // the handler's coroutine was cancelled: the only abort the SDK hands a handler
            if (behaviour?.watchAbort == true) {
                events.write("callback.aborted", id, "elicitation/create", JsonObject(where + ("reason" to JsonPrimitive("CancellationException: ${e.message}"))))
            }
            events.write("callback.left", id, "elicitation/create", JsonObject(where + ("error" to JsonPrimitive("CancellationException"))))
            throw e
        } catch (e: Throwable) {
            events.write("callback.left", id, "elicitation/create", JsonObject(where + ("error" to JsonPrimitive("${e::class.simpleName}: ${e.message}"))))
            throw e
        } finally {
            done.complete(Unit)
        }
    }

    /** The driver's one nested path, for every callback: nested.sent, then nested.ok (the tools it
     *  listed, or the earlier listing for ping) or nested.failed (null), under the SDK's own limit. */
    private suspend fun nested(nested: Nested): Set<String>? {
        var known = listed
        events.write("nested.sent", method = nested.method)
        try {
            bounded(nested.timeoutMs) { options ->
                if (nested.method == "tools/list") known = client.listTools(options = options).tools.map { it.name }.toSet()
                else client.ping(options)
            }
        } catch (e: TimeoutCancellationException) {
            events.write("nested.failed", method = nested.method, detail = errorDetail(e))
            return null
        } catch (e: CancellationException) {
            throw e
        } catch (e: Throwable) {
            events.write("nested.failed", method = nested.method, detail = errorDetail(e))
            return null
        }
        events.write("nested.ok", method = nested.method)
        return known
    }

    private suspend fun behave(b: Behaviour): Answer {
        val otherwise = b.otherwise ?: Answer("cancel", null)
        b.delayMs?.let { if (it > 0) delay(it.milliseconds) } // the plan's think time, not a stand-in
        var known = listed
        b.nested?.let { known = nested(it) ?: return otherwise }
        if (b.needTool != null && b.needTool !in known) return otherwise
        return b.answer
    }

    /** One tools/call as tool.result records it. giveUpAfterMs, counted from the call's first form opening:
     *  cancel the coroutine that awaits callTool (the way coroutines give up; what the SDK then sends is
     *  its own doing). */
    private suspend fun callTool(call: Call): JsonObject = coroutineScope {
        val opened = CompletableDeferred<Unit>()
        formOpened = opened
        var gaveUp = false
        val request = CallToolRequest(CallToolRequestParams(name = call.tool, arguments = call.args))
        val job = async {
            try {
                val r = bounded(plan.callTimeoutMs) { client.callTool(request, it) }
                buildJsonObject { put("result", r.structuredContent ?: JsonNull); put("isError", r.isError == true) }
            } catch (e: TimeoutCancellationException) {
                buildJsonObject { put("error", buildJsonObject { put("code", JsonNull); put("message", "TimeoutCancellationException: ${e.message}") }) }
            } catch (e: CancellationException) {
                throw e
            } catch (e: Throwable) {
                buildJsonObject { put("error", buildJsonObject { put("code", errorDetail(e)["code"]!!); put("message", e.message ?: e.toString()) }) }
            }
        }
        val timer = call.giveUpAfterMs?.let { after ->
            launch { opened.await(); delay(after.milliseconds); gaveUp = true; job.cancel(CancellationException(GIVE_UP_REASON)) }
        }
        try {
            job.await()
        } catch (e: CancellationException) {
            if (!gaveUp) throw e
            buildJsonObject { put("error", buildJsonObject { put("code", JsonNull); put("message", "CancellationException: $GIVE_UP_REASON (its coroutine was cancelled)") }) }
        } finally {
            timer?.cancel()
            formOpened = null
        }
    }

    suspend fun run() {
        if (plan.capabilities.containsKey("elicitation")) {
            client.setRequestHandler<ElicitRequest>(Method.Defined.ElicitationCreate) { request, _ -> elicitation(request) }
        }
        Turns(plan, events, callbacks, { label }, lastId, ::nested).register(client)
        client.connect(Observed(StdioClientTransport(io.input.asSource().buffered(), io.output.asSink().buffered()), lastId, events))
        events.write("note", detail = buildJsonObject { put("server", client.serverVersion?.name ?: "?") })
        if (plan.listToolsFirst) listed = bounded(plan.callTimeoutMs) { client.listTools(options = it) }.tools.map { it.name }.toSet()
        for (call in plan.calls) {
            label = call.label
            events.write("call.started", detail = buildJsonObject { put("call", call.label) })
            val outcome = callTool(call)
            events.write("tool.result", detail = JsonObject(mapOf("call" to JsonPrimitive(call.label)) + outcome))
            if (call.awaitCallbacks) {
                // a call that gave up may leave its form open: the next call waits for it (bounded)
                withTimeout(limit) { running[call.label]?.toList()?.forEach { it.await() } }
            }
        }
        // close() ends the write side (System.out closes: the server sees EOF), then joins the read
        // coroutine, which sits in a blocking System.in read until the lab closes our stdin
        // (StdioClientTransport.kt:244-249): wait for it a short, bounded time, and say which happened.
        val closed = CoroutineScope(Dispatchers.Default).async { client.close() }
        val whole = withTimeoutOrNull(CLOSE_WAIT_MS.milliseconds) { closed.await() } != null
        events.write("note", detail = buildJsonObject { put("sessionClosed", true); put("readLoopEnded", whole) })
    }
}

fun oneLine(e: Throwable): String = "${e::class.simpleName}: ${e.message ?: ""}".replace(Regex("\\s+"), " ").trim()

fun main(args: Array<String>) {
    // kotlin-logging 8.0.4 prints "kotlin-logging: initializing..." with println, on stdout, the
    // JSON-RPC channel, when its first logger is made (KotlinLogging.kt); this property turns it off.
    System.setProperty("kotlin-logging.logStartupMessage", "false")
    if (args.size == 1 && args[0] == "--host") serve(::session)
    // the SDK's transport scope keeps non-daemon threads alive: leave once the session is done
    else exitProcess(session(args, Io(System.`in`, System.out, System.err)))
}
