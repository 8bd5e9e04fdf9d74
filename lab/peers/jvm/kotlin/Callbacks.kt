// The lab's sampling and roots callbacks for the Kotlin driver (both SDK versions, one source), one
// shared turn as lab/peers/py/sampling.py plain_turn: enter, think the call's planned delayMs, send the
// planned nested request through the driver's own nested path (nested.sent/ok/failed), leave, each
// recorded where it happens; then the SDK's own result type built from lab/plan/behaviour.ts
// SYNTHETIC_COMPLETION's / SYNTHETIC_ROOTS' words. No model is called. The types used are the same in
// 0.14.0 and 0.15.0 (kotlin-sdk-core types/sampling.kt:280-305 CreateMessageResult, :315 StopReason,
// types/roots.kt:24 Root, :81 ListRootsResult, types/content.kt:81 TextContent, types/common.kt:114 Role).
package lab

import io.modelcontextprotocol.kotlin.sdk.client.Client
import io.modelcontextprotocol.kotlin.sdk.types.CreateMessageRequest
import io.modelcontextprotocol.kotlin.sdk.types.CreateMessageResult
import io.modelcontextprotocol.kotlin.sdk.types.ListRootsRequest
import io.modelcontextprotocol.kotlin.sdk.types.ListRootsResult
import io.modelcontextprotocol.kotlin.sdk.types.McpException
import io.modelcontextprotocol.kotlin.sdk.types.Method
import io.modelcontextprotocol.kotlin.sdk.types.RPCError
import io.modelcontextprotocol.kotlin.sdk.types.RequestId
import io.modelcontextprotocol.kotlin.sdk.types.Role
import io.modelcontextprotocol.kotlin.sdk.types.Root
import io.modelcontextprotocol.kotlin.sdk.types.StopReason
import io.modelcontextprotocol.kotlin.sdk.types.TextContent
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.delay
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import java.util.concurrent.atomic.AtomicInteger
import kotlin.time.Duration.Companion.milliseconds

// lab/plan/behaviour.ts SYNTHETIC_COMPLETION and SYNTHETIC_ROOTS, word for word
const val SYNTHETIC_TEXT = "synthetic completion (no model was called)"
const val SYNTHETIC_MODEL = "lab-synthetic"
val SYNTHETIC_ROOTS = listOf("file:///synthetic/lab-root-a" to "lab-root-a", "file:///synthetic/lab-root-b" to "lab-root-b")

class Turns(
    private val plan: Plan,
    private val events: Events,
    private val callbacks: AtomicInteger, // shared with the elicitation callback: n counts every callback
    private val label: () -> String,
    private val lastId: Map<String, RequestId>,
    private val nested: suspend (Nested) -> Set<String>?,
) {
    /** Registers each callback exactly when the plan declares its capability (the capability itself is
     *  declared through ClientOptions.capabilities, from the plan). Protocol.setRequestHandler is public
     *  (0.14.0 shared/Protocol.kt:542, 0.15.0 :927); the Client refuses a sampling or roots handler whose
     *  capability it does not declare (Client.assertRequestHandlerCapability, client Client.kt 0.14.0
     *  :342-353, 0.15.0 :350-361). With roots declared the Client has already registered its own roots/list
     *  handler, which answers the roots added through addRoots (Client.kt 0.14.0 :165-170, 0.15.0
     *  :172-177); setRequestHandler replaces it ("will replace any previous request handler",
     *  Protocol.kt 0.14.0 :540, 0.15.0 :920), so the lab's callback is what answers. */
    fun register(client: Client) {
        if (plan.capabilities.containsKey("sampling")) {
            client.setRequestHandler<CreateMessageRequest>(Method.Defined.SamplingCreateMessage) { _, _ -> sampling() }
        }
        if (plan.capabilities.containsKey("roots")) {
            client.setRequestHandler<ListRootsRequest>(Method.Defined.RootsList) { _, _ -> roots() }
        }
    }

    private suspend fun sampling(): CreateMessageResult {
        turn("sampling/createMessage") { it.sampling }
        return CreateMessageResult(Role.Assistant, TextContent(SYNTHETIC_TEXT), SYNTHETIC_MODEL, StopReason.EndTurn)
    }

    private suspend fun roots(): ListRootsResult {
        turn("roots/list") { it.roots }
        return ListRootsResult(SYNTHETIC_ROOTS.map { (uri, name) -> Root(uri, name) })
    }

    /** The one shared turn. No turn planned for the call: callback.left with an error, and the SDK
     *  answers the McpException as a JSON-RPC error (Protocol.kt onRequest's catch), as py answers. */
    private suspend fun turn(method: String, planned: (Call) -> Turn?) {
        // read before the first suspension: the handler is entered in the call that delivered its frame
        val id = lastId[method]
        val n = callbacks.incrementAndGet()
        val call = label()
        val where = buildJsonObject { put("n", n); put("call", call) }
        events.write("callback.entered", id, method, where)
        val turn = plan.calls.firstOrNull { it.label == call }?.let(planned)
        if (turn == null) {
            events.write("callback.left", id, method, JsonObject(where + ("error" to JsonPrimitive("McpException: no $method callback planned"))))
            throw McpException(RPCError.ErrorCode.INVALID_REQUEST, "no $method planned for this call")
        }
        try {
            if (turn.delayMs > 0) delay(turn.delayMs.milliseconds) // the plan's think time
            turn.nested?.let { nested(it) } // its outcome is recorded there and changes nothing else
        } catch (e: CancellationException) {
            events.write("callback.left", id, method, JsonObject(where + ("error" to JsonPrimitive("CancellationException"))))
            throw e
        }
        events.write("callback.left", id, method, JsonObject(where + ("action" to JsonPrimitive("accept"))))
    }
}
