// The SessionPlan (lab/plan/behaviour.ts; schema build/session-plan.schema.json), parsed strictly:
// an unknown field, a wrong type or a value out of range refuses the plan with its path.
package lab

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.booleanOrNull
import kotlinx.serialization.json.intOrNull

data class Answer(val action: String, val content: JsonObject?)
data class Nested(val method: String, val timeoutMs: Int)
data class Behaviour(
    val delayMs: Int?, val nested: Nested?, val needTool: String?, val answer: Answer,
    val otherwise: Answer?, val watchAbort: Boolean,
)
/** A SamplingBehaviour / RootsBehaviour: think delayMs, then send nested if planned. */
data class Turn(val delayMs: Int, val nested: Nested?)
data class Call(
    val label: String, val tool: String, val args: JsonObject, val callback: Behaviour?,
    val giveUpAfterMs: Int?, val awaitCallbacks: Boolean, val sampling: Turn?, val roots: Turn?,
)
data class Plan(
    val scenario: String, val capabilities: JsonObject, val listToolsFirst: Boolean,
    val calls: List<Call>, val callTimeoutMs: Int,
)

class BadPlan(message: String) : Exception(message)

private class Fields(private val o: JsonObject, private val at: String, allowed: Set<String>, required: Set<String>) {
    init {
        (o.keys - allowed).firstOrNull()?.let { throw BadPlan("$at.$it: unknown field") }
        (required - o.keys).firstOrNull()?.let { throw BadPlan("$at.$it: required") }
    }
    fun has(k: String) = o.containsKey(k)
    fun obj(k: String): JsonObject = o[k] as? JsonObject ?: throw BadPlan("$at.$k: expected an object")
    fun str(k: String, min: Int = 0): String {
        val p = o[k] as? JsonPrimitive
        if (p == null || !p.isString || p.content.length < min) throw BadPlan("$at.$k: expected a string${if (min > 0) " of at least $min character" else ""}")
        return p.content
    }
    fun bool(k: String): Boolean = (o[k] as? JsonPrimitive)?.takeIf { !it.isString }?.booleanOrNull ?: throw BadPlan("$at.$k: expected a boolean")
    fun int(k: String, min: Int, max: Int = Int.MAX_VALUE): Int {
        val p = o[k] as? JsonPrimitive
        val v = p?.takeIf { !it.isString && !it.content.contains('.') && !it.content.contains('e', true) }?.intOrNull
            ?: throw BadPlan("$at.$k: expected an integer")
        if (v < min || v > max) throw BadPlan("$at.$k: $v is out of range $min..$max")
        return v
    }
    fun list(k: String): List<JsonElement> = (o[k] as? kotlinx.serialization.json.JsonArray) ?: throw BadPlan("$at.$k: expected an array")
}

private fun obj(e: JsonElement, at: String): JsonObject = e as? JsonObject ?: throw BadPlan("$at: expected an object")

private fun answer(e: JsonElement, at: String): Answer {
    val f = Fields(obj(e, at), at, setOf("action", "content"), setOf("action"))
    val action = f.str("action")
    if (action !in setOf("accept", "decline", "cancel")) throw BadPlan("$at.action: expected accept, decline or cancel")
    val content = if (f.has("content")) f.obj("content") else null
    // Content with decline/cancel is kept: ElicitResult's constructor refuses it when the callback
    // answers (types/elicitation.kt:181-185), and the SDK sends that refusal as the answer (an error).
    return Answer(action, content)
}

private fun nested(f: Fields, at: String): Nested? = if (f.has("nested")) {
    val n = Fields(f.obj("nested"), "$at.nested", setOf("method", "timeoutMs"), setOf("method", "timeoutMs"))
    val method = n.str("method")
    if (method !in setOf("tools/list", "ping")) throw BadPlan("$at.nested.method: expected tools/list or ping")
    Nested(method, n.int("timeoutMs", 1, 60_000))
} else null

private fun turn(e: JsonElement, at: String): Turn {
    val f = Fields(obj(e, at), at, setOf("delayMs", "nested"), setOf("delayMs"))
    return Turn(f.int("delayMs", 0, 10_000), nested(f, at))
}

private fun behaviour(e: JsonElement, at: String): Behaviour {
    val f = Fields(obj(e, at), at, setOf("delayMs", "nested", "needTool", "answer", "otherwise", "watchAbort"), setOf("answer"))
    val nested = nested(f, at)
    return Behaviour(
        delayMs = if (f.has("delayMs")) f.int("delayMs", 0, 10_000) else null,
        nested = nested,
        needTool = if (f.has("needTool")) f.str("needTool") else null,
        answer = answer(obj(e, at)["answer"]!!, "$at.answer"),
        otherwise = obj(e, at)["otherwise"]?.let { answer(it, "$at.otherwise") },
        watchAbort = if (f.has("watchAbort")) f.bool("watchAbort") else false,
    )
}

private fun call(e: JsonElement, at: String): Call {
    val o = obj(e, at)
    val f = Fields(o, at, setOf("label", "tool", "args", "callback", "giveUpAfterMs", "awaitCallbacks", "sampling", "roots"), setOf("label"))
    return Call(
        label = f.str("label", 1),
        tool = if (f.has("tool")) f.str("tool") else "calculate",
        args = if (f.has("args")) f.obj("args") else JsonObject(emptyMap()),
        callback = o["callback"]?.let { behaviour(it, "$at.callback") },
        giveUpAfterMs = if (f.has("giveUpAfterMs")) f.int("giveUpAfterMs", 1, 60_000) else null,
        awaitCallbacks = if (f.has("awaitCallbacks")) f.bool("awaitCallbacks") else false,
        sampling = o["sampling"]?.let { turn(it, "$at.sampling") },
        roots = o["roots"]?.let { turn(it, "$at.roots") },
    )
}

fun parsePlan(text: String): Plan {
    val root = try { Json.parseToJsonElement(text) } catch (e: Exception) { throw BadPlan("not JSON: ${e.message?.lineSequence()?.first()}") }
    val f = Fields(obj(root, "$"), "$", setOf("scenario", "capabilities", "listToolsFirst", "calls", "callTimeoutMs"),
        setOf("scenario", "capabilities", "listToolsFirst", "calls", "callTimeoutMs"))
    val calls = f.list("calls").mapIndexed { i, c -> call(c, "$.calls[$i]") }
    if (calls.isEmpty()) throw BadPlan("$.calls: expected at least one call")
    return Plan(f.str("scenario", 1), f.obj("capabilities"), f.bool("listToolsFirst"), calls, f.int("callTimeoutMs", 1))
}
