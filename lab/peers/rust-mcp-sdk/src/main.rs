// Client peer driver `rust-mcp-sdk` (the crate, not rmcp): its client runtime over its own StdioTransport on
// this process's stdio runs a SessionPlan and writes DriverEvent lines (lab/plan/). Public API only. The one
// reading task awaits each request handler before the next frame, replies included (client_runtime.rs:191-254,
// :304-345), so a nested request waits until its per-request limit (message_dispatcher.rs:174-184).
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use rust_mcp_sdk::error::McpSdkError;
use rust_mcp_sdk::mcp_client::{client_runtime, ClientHandler, McpClientOptions, ToMcpClientHandler};
use rust_mcp_sdk::schema::{
    CancelledNotificationParams, ClientCapabilities, ClientMessage, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
    InitializeRequestParams, ListRootsResult, RequestFromClient, RequestParams, ResultFromServer, RpcError, ServerMessage,
    LATEST_PROTOCOL_VERSION,
};
use rust_mcp_sdk::{McpClient, McpObserver, StdioTransport, TransportError, TransportOptions};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use tokio::sync::Notify;

// The driver contract (the SessionPlan it reads, the events it writes), shared with the rmcp driver as
// one file: both are serde structs and one writer, nothing of either SDK.
include!("../../rmcp/src/contract.rs");

const GIVE_UP_REASON: &str = "the client gave up on the call while its form was open";
/// lab/plan/behaviour.ts SYNTHETIC_COMPLETION and SYNTHETIC_ROOTS, word for word.
const SYNTHETIC_TEXT: &str = "synthetic completion (no model was called)";
const SYNTHETIC_ROOTS: [(&str, &str); 2] = [("file:///synthetic/lab-root-a", "lab-root-a"), ("file:///synthetic/lab-root-b", "lab-root-b")];
const CALLBACK_METHODS: [&str; 3] = ["elicitation/create", "sampling/createMessage", "roots/list"];

struct State {
    plan: SessionPlan,
    events: Events,
    listed: Mutex<HashSet<String>>,
    label: Mutex<String>,
    callbacks: Mutex<u64>,
    /// the id of the last inbound request per callback method: the handlers are not given it
    last_id: Mutex<HashMap<String, Value>>,
    /// notifications/cancelled seen by the notification handler (watchAbort)
    cancelled: Notify,
    /// callbacks running (awaitCallbacks after a call that gave up waits for them), and their changes
    running: Mutex<usize>,
    changed: Notify,
}

/// Counts a running callback until it is dropped, however the callback ends.
struct Running<'a>(&'a State);
impl<'a> Running<'a> {
    fn new(st: &'a State) -> Self { *st.running.lock().unwrap() += 1; Running(st) }
}
impl Drop for Running<'_> {
    fn drop(&mut self) { *self.0.running.lock().unwrap() -= 1; self.0.changed.notify_waiters(); }
}

impl Events {
    /// frame.dispatched: the runtime took this frame from its stream (McpObserver::on_receive, called first
    /// in handle_message, client_runtime.rs:196-199). The shared writer's kinds stop at rmcp's.
    fn dispatched(&self, id: Option<&Value>, method: Option<&str>) {
        let mut file = self.file.lock().unwrap();
        let mut event = Map::new();
        event.insert("t_ns".into(), json!(monotonic_ns()));
        event.insert("kind".into(), json!("frame.dispatched"));
        if let Some(id) = id { event.insert("id".into(), id.clone()); }
        if let Some(m) = method { event.insert("method".into(), json!(m)); }
        let _ = writeln!(file, "{}", Value::Object(event)).and_then(|_| file.flush());
    }
}

struct Seen(Arc<State>);
impl McpObserver<ServerMessage, ClientMessage> for Seen {
    fn on_receive(&self, message: &ServerMessage) {
        let v = serde_json::to_value(message).unwrap_or(Value::Null);
        let id = v.get("id").filter(|i| !i.is_null());
        let method = v["method"].as_str();
        if let (Some(id), Some(m)) = (id, method) {
            if CALLBACK_METHODS.contains(&m) { self.0.last_id.lock().unwrap().insert(m.into(), id.clone()); }
        }
        self.0.events.dispatched(id, method);
    }
}

/// The SDK's error as (code, message, type, configured limit in ms). A timeout is SdkError -32001 with
/// data.timeout (rust-mcp-transport utils.rs:56-65; rust-mcp-schema schema_utils.rs:3472-3477).
fn classify(e: &McpSdkError) -> (Option<i64>, String, &'static str, Option<u64>) {
    let limit = |d: &Option<Value>| d.as_ref().and_then(|d| d["timeout"].as_u64());
    match e {
        McpSdkError::Transport(TransportError::Sdk(s)) | McpSdkError::SdkError(s) => (Some(s.code), s.message.clone(), "SdkError", limit(&s.data)),
        McpSdkError::RpcError(r) => (Some(r.code), r.message.clone(), "RpcError", None),
        _ => (None, e.to_string(), "McpSdkError", None),
    }
}

fn failure(e: &McpSdkError) -> Value {
    let (code, message, kind, limit) = classify(e);
    let mut d = json!({"code": code, "message": message, "type": kind});
    if let Some(ms) = limit { d["timeoutMs"] = json!(ms); }
    d
}

/// The nested request through the handler's own runtime, under the SDK's per-request limit. None when it failed.
async fn send_nested(st: &State, runtime: &dyn McpClient, nested: &Nested) -> Option<HashSet<String>> {
    let (request, word) = match nested.method {
        NestedMethod::ToolsList => (RequestFromClient::ListToolsRequest(None), "tools/list"),
        NestedMethod::Ping => (RequestFromClient::PingRequest(None), "ping"),
    };
    st.events.write(Kind::NestedSent, None, Some(word), None);
    match runtime.request(request, Some(Duration::from_millis(nested.timeout_ms))).await {
        Ok(ResultFromServer::ListToolsResult(r)) => { st.events.write(Kind::NestedOk, None, Some(word), None); Some(r.tools.iter().map(|t| t.name.clone()).collect()) }
        Ok(_) if word == "ping" => { st.events.write(Kind::NestedOk, None, Some(word), None); Some(HashSet::new()) }
        Ok(_) => { st.events.write(Kind::NestedFailed, None, Some(word), Some(json!({"code": null, "message": "unexpected result", "type": "UnexpectedResult"}))); None }
        Err(e) => { st.events.write(Kind::NestedFailed, None, Some(word), Some(failure(&e))); None }
    }
}

/// One callback's entry: its number, call, id (from the observer) and the detail every line carries.
fn enter(st: &State, method: &str) -> (String, Option<Value>, Value) {
    let n = { let mut c = st.callbacks.lock().unwrap(); *c += 1; *c };
    let call = st.label.lock().unwrap().clone();
    let id = st.last_id.lock().unwrap().get(method).cloned();
    let where_ = json!({"n": n, "call": call});
    st.events.write(Kind::CallbackEntered, id.clone(), Some(method), Some(where_.clone()));
    (call, id, where_)
}
fn with(where_: &Value, extra: Value) -> Option<Value> { let mut d = where_.clone(); d.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone()); Some(d) }

async fn behave(st: &State, runtime: &dyn McpClient, b: &Behaviour) -> AnswerData {
    let listed = st.listed.lock().unwrap().clone();
    decide(b, listed, |nested| async move { send_nested(st, runtime, &nested).await }).await
}

/// sampling/createMessage and roots/list: enter, think, the planned nested request, leave (as rmcp's sampling.rs).
async fn plain_turn(st: &State, runtime: &dyn McpClient, method: &str, plan: fn(&CallData) -> Option<&Turn>, word: &str) -> Result<(), RpcError> {
    let (call, id, where_) = enter(st, method);
    let _running = Running::new(st);
    let Some(turn) = st.plan.calls.iter().find(|c| c.label == call).and_then(plan).cloned() else {
        st.events.write(Kind::CallbackLeft, id, Some(method), with(&where_, json!({"error": format!("RpcError: no {method} callback planned")})));
        return Err(RpcError::invalid_request().with_message(format!("no {word} planned for this call")));
    };
    if turn.delay_ms > 0 { tokio::time::sleep(Duration::from_millis(turn.delay_ms)).await; }
    if let Some(nested) = &turn.nested { send_nested(st, runtime, nested).await; }
    st.events.write(Kind::CallbackLeft, id, Some(method), with(&where_, json!({"action": "accept"})));
    Ok(())
}

fn schema_value<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, RpcError> { serde_json::from_value(v).map_err(|e| RpcError::internal_error().with_message(e.to_string())) }

struct Client(Arc<State>);

#[async_trait]
impl ClientHandler for Client {
    async fn handle_elicit_request(&self, _params: ElicitRequestParams, runtime: &dyn McpClient) -> Result<ElicitResult, RpcError> {
        let st = &*self.0;
        let method = "elicitation/create";
        let (call, id, where_) = enter(st, method);
        let _running = Running::new(st);
        let Some(b) = st.plan.calls.iter().find(|c| c.label == call).and_then(|c| c.callback.clone()) else {
            st.events.write(Kind::CallbackLeft, id, Some(method), with(&where_, json!({"error": "RpcError: Elicitation not supported"})));
            return Err(RpcError::invalid_request().with_message("Elicitation not supported"));
        };
        let otherwise = b.otherwise.clone().unwrap_or(AnswerData { action: Action::Cancel, content: None });
        let answer = if b.watch_abort == Some(true) {
            // handle_cancelled_notification runs on the same task as this handler: it cannot fire meanwhile
            tokio::select! {
                a = behave(st, runtime, &b) => a,
                _ = st.cancelled.notified() => {
                    st.events.write(Kind::CallbackAborted, id.clone(), Some(method), with(&where_, json!({"reason": "notifications/cancelled reached handle_cancelled_notification"})));
                    otherwise
                }
            }
        } else { behave(st, runtime, &b).await };
        let word = match answer.action { Action::Accept => "accept", Action::Decline => "decline", Action::Cancel => "cancel" };
        st.events.write(Kind::CallbackLeft, id, Some(method), with(&where_, json!({"action": word})));
        let mut result = json!({"action": word});
        if let Some(content) = answer.content { result["content"] = Value::Object(content); }
        schema_value(result)
    }

    async fn handle_create_message_request(&self, _params: CreateMessageRequestParams, runtime: &dyn McpClient) -> Result<CreateMessageResult, RpcError> {
        plain_turn(&self.0, runtime, "sampling/createMessage", |c| c.sampling.as_ref(), "sampling").await?;
        schema_value(json!({"role": "assistant", "content": {"type": "text", "text": SYNTHETIC_TEXT}, "model": "lab-synthetic", "stopReason": "endTurn"}))
    }

    async fn handle_list_roots_request(&self, _params: Option<RequestParams>, runtime: &dyn McpClient) -> Result<ListRootsResult, RpcError> {
        plain_turn(&self.0, runtime, "roots/list", |c| c.roots.as_ref(), "roots").await?;
        schema_value(json!({"roots": SYNTHETIC_ROOTS.iter().map(|(uri, name)| json!({"uri": uri, "name": name})).collect::<Vec<_>>()}))
    }

    async fn handle_cancelled_notification(&self, _params: CancelledNotificationParams, _runtime: &dyn McpClient) -> Result<(), RpcError> {
        self.0.cancelled.notify_waiters();
        Ok(())
    }
}

/// One tools/call under the plan's limit. giveUpAfterMs (counted from the call's start here: the SDK
/// offers no hook at the form's opening) drops the wait; the SDK has no public way to cancel its own
/// request (no request id is returned), so no notifications/cancelled is sent.
async fn call_tool(st: &State, runtime: &dyn McpClient, call: &CallData) -> Value {
    let params = json!({"name": call.tool, "arguments": call.args});
    let request = match schema_value(params) { Ok(p) => RequestFromClient::CallToolRequest(p), Err(e) => return json!({"error": {"code": null, "message": e.message}}) };
    let send = runtime.request(request, Some(Duration::from_millis(st.plan.call_timeout_ms)));
    let result = match call.give_up_after_ms {
        None => send.await,
        Some(ms) => tokio::select! {
            r = send => r,
            _ = tokio::time::sleep(Duration::from_millis(ms)) => return json!({"error": {"code": null, "message": format!("Cancelled: {GIVE_UP_REASON} (no notifications/cancelled: the SDK returns no request id)")}}),
        },
    };
    match result {
        Ok(ResultFromServer::CallToolResult(r)) => json!({"result": r.structured_content, "isError": r.is_error == Some(true)}),
        Ok(_) => json!({"error": {"code": null, "message": "unexpected result: not a CallToolResult"}}),
        Err(e) => { let (code, message, _, _) = classify(&e); json!({"error": {"code": code, "message": message}}) }
    }
}

async fn run(st: Arc<State>, capabilities: ClientCapabilities) -> Result<(), String> {
    let details = InitializeRequestParams {
        capabilities,
        client_info: schema_value(json!({"name": "reentrancy-lab-client-rust-mcp-sdk", "version": "0.1.0"})).map_err(|e| e.message)?,
        meta: None,
        protocol_version: LATEST_PROTOCOL_VERSION.into(),
    };
    // no command: the transport speaks on this process's own stdin/stdout (stdio.rs:234-249)
    let transport = StdioTransport::new(TransportOptions::default()).map_err(|e| e.to_string())?;
    let client = client_runtime::create_client(McpClientOptions {
        client_details: details, transport, handler: Client(st.clone()).to_mcp_client_handler(),
        task_store: None, server_task_store: None, message_observer: Some(Arc::new(Seen(st.clone()))),
    });
    client.clone().start().await.map_err(|e| format!("initialize failed: {e}"))?;
    let info = client.server_info().map(|i| serde_json::to_value(i).unwrap_or(Value::Null)).unwrap_or(Value::Null);
    st.events.write(Kind::Note, None, None, Some(json!({"negotiatedProtocol": info["protocolVersion"], "server": info["serverInfo"]["name"], "inline": true})));
    if st.plan.list_tools_first {
        match client.request(RequestFromClient::ListToolsRequest(None), Some(Duration::from_millis(st.plan.call_timeout_ms))).await {
            Ok(ResultFromServer::ListToolsResult(r)) => *st.listed.lock().unwrap() = r.tools.iter().map(|t| t.name.clone()).collect(),
            Ok(_) => return Err("tools/list failed: unexpected result".into()),
            Err(e) => return Err(format!("tools/list failed: {}", classify(&e).1)),
        }
    }
    for call in &st.plan.calls {
        *st.label.lock().unwrap() = call.label.clone();
        st.events.write(Kind::CallStarted, None, None, Some(json!({"call": call.label})));
        let mut detail = json!({"call": call.label});
        detail.as_object_mut().unwrap().extend(call_tool(&st, &*client, call).await.as_object().unwrap().clone());
        st.events.write(Kind::ToolResult, None, None, Some(detail));
        if call.await_callbacks == Some(true) {
            // only a call that gave up can leave a callback running: its reply is routed by the task
            // that runs the handler, after the handler left (client_runtime.rs:304-311)
            let wait = async { loop {
                let changed = st.changed.notified();
                tokio::pin!(changed);
                changed.as_mut().enable();
                if *st.running.lock().unwrap() == 0 { break; }
                changed.await;
            } };
            tokio::time::timeout(Duration::from_millis(st.plan.call_timeout_ms), wait).await.map_err(|_| format!("a callback of {} still ran after callTimeoutMs", call.label))?;
        }
    }
    client.shut_down().await.map_err(|e| format!("closing the session: {e}"))?;
    st.events.write(Kind::Note, None, None, Some(json!({"sessionClosed": true})));
    Ok(())
}

/// The whole driver: 2 for bad arguments or a refused plan, 1 when the session failed; each failure one line.
async fn main_async(args: Vec<String>) -> i32 {
    let arg = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let (Some(plan_file), Some(events_file)) = (arg("--plan"), arg("--events")) else {
        eprintln!("rust-mcp-sdk-client: usage: rust-mcp-sdk-client --plan PLAN.json --events EVENTS.jsonl");
        return 2;
    };
    let plan = std::fs::read_to_string(&plan_file).map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str::<SessionPlan>(&text).map_err(|e| e.to_string()))
        .and_then(|plan| check_plan(&plan).map(|_| plan));
    let plan = match plan { Ok(p) => p, Err(e) => { eprintln!("rust-mcp-sdk-client: bad plan {plan_file}: {e}"); return 2; } };
    let capabilities: ClientCapabilities = match serde_json::from_value(Value::Object(plan.capabilities.clone())) {
        Ok(c) => c, Err(e) => { eprintln!("rust-mcp-sdk-client: bad plan {plan_file}: capabilities: {e}"); return 2; }
    };
    let file = match std::fs::File::create(&events_file) { Ok(f) => f, Err(e) => { eprintln!("rust-mcp-sdk-client: cannot write {events_file}: {e}"); return 2; } };
    let st = Arc::new(State {
        plan, events: Events { file: Mutex::new(file), ended: Arc::default() }, listed: Mutex::default(), label: Mutex::default(),
        callbacks: Mutex::new(0), last_id: Mutex::default(), cancelled: Notify::new(),
        running: Mutex::new(0), changed: Notify::new(),
    });
    match run(st.clone(), capabilities).await {
        Ok(()) => 0,
        Err(e) => {
            st.events.write(Kind::Note, None, None, Some(json!({"sessionError": {"code": null, "message": e, "type": "rust-mcp-sdk"}})));
            eprintln!("rust-mcp-sdk-client: session failed: {e}");
            1
        }
    }
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("tokio runtime");
    let code = runtime.block_on(main_async(std::env::args().skip(1).collect()));
    // tokio's stdin reader is a blocking thread that waits for EOF: do not wait for it on the way out
    runtime.shutdown_background();
    std::process::exit(code)
}
