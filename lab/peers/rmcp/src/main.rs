// Client peer driver `rmcp` (rmcp 3.11.0, the official Rust SDK) speaking MCP over its own stdin/stdout
// (or, hosted, over a session's connections: host.rs). It executes a SessionPlan (lab/plan/behaviour.ts)
// and writes DriverEvent lines (lab/plan/driver-events.ts).
// CLI: rmcp-client --plan PLAN.json --events EVENTS.jsonl, or rmcp-client --host (host.rs)
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::*;
// The initialize parameters: ClientConfig from rmcp 3.4.1 (model.rs:1158), the same type named ClientInfo before
// (3.3.0 model.rs:1123); the release history builds those with --features pre_3_4 (lab/peers/rmcp/history.ts).
#[cfg(not(feature = "pre_3_4"))]
use rmcp::model::ClientConfig;
#[cfg(feature = "pre_3_4")]
use rmcp::model::ClientInfo as ClientConfig;
// The elicitation types: ElicitRequestParams and ElicitResult from rmcp 2.0.0 (model.rs:2780, :2844), named
// CreateElicitationRequestParams and CreateElicitationResult before (1.8.0 model.rs:2643, :2704): --features pre_2_0.
#[cfg(feature = "pre_2_0")]
use rmcp::model::{CreateElicitationRequestParams as ElicitRequestParams, CreateElicitationResult as ElicitResult};
use rmcp::service::{PeerRequestOptions, RequestContext, RoleClient, ServiceError};
use rmcp::{ClientHandler, Peer, ServiceExt};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::Notify;

// Why the client gave up on a call (CallData.giveUpAfterMs): the words of lab/peers/call-book.ts GIVE_UP_REASON.
const GIVE_UP_REASON: &str = "the client gave up on the call while its form was open";

// The driver contract (the SessionPlan it reads, the events it writes), in the same module.
include!("contract.rs");
// The sampling and roots callbacks, through one plain_turn.
mod sampling;
// One session from its arguments and streams, and the --host mode that runs many.
mod host;


/// The SDK's error, classified here: (code, message, type). Only a JSON-RPC error reply has a code.
fn classify(error: &ServiceError) -> (Option<i32>, String, &'static str) {
    match error {
        ServiceError::McpError(e) => (Some(e.code.0), e.message.to_string(), "McpError"),
        ServiceError::Timeout { .. } => (None, format!("Timeout: {error}"), "Timeout"),
        ServiceError::TransportClosed => (None, format!("TransportClosed: {error}"), "TransportClosed"),
        ServiceError::TransportSend(_) => (None, format!("TransportSend: {error}"), "TransportSend"),
        ServiceError::UnexpectedResponse => (None, format!("UnexpectedResponse: {error}"), "UnexpectedResponse"),
        ServiceError::Cancelled { .. } => (None, format!("Cancelled: {error}"), "Cancelled"),
        _ => (None, format!("ServiceError: {error}"), "ServiceError"),
    }
}

struct State {
    plan: SessionPlan,
    events: Events,
    info: ClientConfig,
    listed: Mutex<HashSet<String>>,
    label: Mutex<String>,
    callbacks: Mutex<u64>,
    /// callbacks still running, by the call they serve (awaitCallbacks waits for them)
    running: Mutex<HashMap<String, usize>>,
    changed: Notify,
    /// set while a call runs: its first form opening starts giveUpAfterMs
    form_opened: Mutex<Option<Arc<Notify>>>,
}

/// Counts a running callback for its call until it is dropped, however the callback ends.
struct Running<'a>(&'a State, String);
impl Drop for Running<'_> {
    fn drop(&mut self) {
        *self.0.running.lock().unwrap().entry(self.1.clone()).or_default() -= 1;
        self.0.changed.notify_waiters();
    }
}

#[derive(Clone)]
struct Client(Arc<State>);

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig { self.0.info.clone() }

    #[allow(deprecated)] // Sampling and roots: SEP-2577-deprecated in rmcp 3.11.0, still its public API
    async fn create_message(&self, _request: CreateMessageRequestParams, context: RequestContext<RoleClient>) -> Result<CreateMessageResult, ErrorData> { sampling::create_message(&self.0, context).await }

    #[allow(deprecated)]
    async fn list_roots(&self, context: RequestContext<RoleClient>) -> Result<ListRootsResult, ErrorData> { sampling::list_roots(&self.0, context).await }

    async fn create_elicitation(&self, _request: ElicitRequestParams, context: RequestContext<RoleClient>) -> Result<ElicitResult, ErrorData> {
        let st = &*self.0;
        let n = { let mut c = st.callbacks.lock().unwrap(); *c += 1; *c };
        let call = st.label.lock().unwrap().clone();
        let id = serde_json::to_value(&context.id).ok();
        let method = Some("elicitation/create");
        let where_ = json!({"n": n, "call": call});
        let with = |extra: Value| { let mut d = where_.clone(); d.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone()); Some(d) };
        st.events.write(Kind::CallbackEntered, id.clone(), method, Some(where_.clone()));
        if let Some(opened) = st.form_opened.lock().unwrap().as_ref() { opened.notify_one(); }
        *st.running.lock().unwrap().entry(call.clone()).or_default() += 1;
        let _running = Running(st, call.clone());
        let Some(b) = st.plan.calls.iter().find(|c| c.label == call).and_then(|c| c.callback.clone()) else {
            // no behaviour for this call: what the other drivers answer (client.py: "Elicitation not supported")
            st.events.write(Kind::CallbackLeft, id, method, with(json!({"error": "McpError: Elicitation not supported"})));
            return Err(ErrorData::invalid_request("Elicitation not supported", None));
        };
        let otherwise = b.otherwise.clone().unwrap_or(AnswerData { action: Action::Cancel, content: None });
        let answer = if b.watch_abort == Some(true) {
            // notifications/cancelled for this request cancels the parent of context.ct (service.rs local_ct_pool)
            tokio::select! {
                a = behave(st, &context.peer, &b) => a,
                _ = context.ct.cancelled() => {
                    st.events.write(Kind::CallbackAborted, id.clone(), method, with(json!({"reason": "RequestContext.ct was cancelled (notifications/cancelled for this request)"})));
                    otherwise
                }
            }
        } else { behave(st, &context.peer, &b).await };
        let (action, word) = match answer.action { Action::Accept => (ElicitationAction::Accept, "accept"), Action::Decline => (ElicitationAction::Decline, "decline"), Action::Cancel => (ElicitationAction::Cancel, "cancel") };
        st.events.write(Kind::CallbackLeft, id, method, with(json!({"action": word})));
        // content goes out exactly as the plan gives it: ElicitResult.content is an untyped serde_json::Value
        // ElicitResult::new from rmcp 1.0.0 (model.rs:2596-2603); 0.17.0 builds the struct itself (model.rs:2172-2181)
        #[cfg(not(feature = "pre_1_0"))]
        let mut result = ElicitResult::new(action);
        #[cfg(feature = "pre_1_0")]
        let mut result = ElicitResult { action, content: None };
        result.content = answer.content.map(Value::Object);
        Ok(result)
    }
}

async fn behave(st: &State, peer: &Peer<RoleClient>, b: &Behaviour) -> AnswerData {
    let listed = st.listed.lock().unwrap().clone();
    decide(b, listed, |nested| async move { send_nested(st, peer, &nested).await }).await
}

fn with_timeout(ms: u64) -> PeerRequestOptions { let mut o = PeerRequestOptions::no_options(); o.timeout = Some(Duration::from_millis(ms)); o }

/// The nested request on the callback's own peer, under the SDK's own per-request timeout
/// (PeerRequestOptions.timeout; RequestHandle::await_response). None when it failed.
async fn send_nested(st: &State, peer: &Peer<RoleClient>, nested: &Nested) -> Option<HashSet<String>> {
    let (request, word) = match nested.method {
        NestedMethod::ToolsList => (ClientRequest::ListToolsRequest(ListToolsRequest::default()), "tools/list"),
        NestedMethod::Ping => (ClientRequest::PingRequest(PingRequest::default()), "ping"),
    };
    st.events.write(Kind::NestedSent, None, Some(word), None);
    let result = match peer.send_request_with_option(request, with_timeout(nested.timeout_ms)).await {
        Ok(handle) => handle.await_response().await,
        Err(e) => Err(e),
    };
    match result {
        Ok(ServerResult::ListToolsResult(r)) => { st.events.write(Kind::NestedOk, None, Some(word), None); Some(r.tools.iter().map(|t| t.name.to_string()).collect()) }
        Ok(ServerResult::EmptyResult(_)) if word == "ping" => { st.events.write(Kind::NestedOk, None, Some(word), None); Some(HashSet::new()) }
        Ok(_) => { st.events.write(Kind::NestedFailed, None, Some(word), Some(json!({"code": null, "message": "UnexpectedResponse", "type": "UnexpectedResponse"}))); None }
        Err(e) => { let (code, message, kind) = classify(&e); st.events.write(Kind::NestedFailed, None, Some(word), Some(json!({"code": code, "message": message, "type": kind}))); None }
    }
}

fn outcome(result: Result<ServerResult, ServiceError>) -> Value {
    match result {
        Ok(ServerResult::CallToolResult(r)) => json!({"result": r.structured_content, "isError": r.is_error == Some(true)}),
        Ok(_) => json!({"error": {"code": null, "message": "UnexpectedResponse: not a CallToolResult"}}),
        Err(e) => { let (code, message, _) = classify(&e); json!({"error": {"code": code, "message": message}}) }
    }
}

/// One tools/call, as tool.result records it. giveUpAfterMs, counted from the call's first form opening:
/// RequestHandle::cancel, which sends notifications/cancelled for the call (service.rs).
async fn call_tool(st: &State, peer: &Peer<RoleClient>, call: &CallData) -> Value {
    let opened = Arc::new(Notify::new());
    *st.form_opened.lock().unwrap() = Some(opened.clone());
    // CallToolRequestParams::new from rmcp 1.0.0 (model.rs:2802-2811); 0.17.0 builds the struct itself (model.rs:2342-2354)
    #[cfg(not(feature = "pre_1_0"))]
    let mut params = CallToolRequestParams::new(call.tool.clone());
    #[cfg(feature = "pre_1_0")]
    let mut params = CallToolRequestParams { meta: None, name: call.tool.clone().into(), arguments: None, task: None };
    params.arguments = Some(call.args.clone());
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
    let limit = st.plan.call_timeout_ms;
    let result = match peer.send_request_with_option(request, with_timeout(limit)).await {
        Err(e) => outcome(Err(e)),
        Ok(handle) => match call.give_up_after_ms {
            None => outcome(handle.await_response().await),
            Some(ms) => {
                let mut handle = handle;
                let give_up = async { opened.notified().await; tokio::time::sleep(Duration::from_millis(ms)).await };
                tokio::select! {
                    r = tokio::time::timeout(Duration::from_millis(limit), &mut handle.rx) => match r {
                        Ok(Ok(r)) => outcome(r),
                        Ok(Err(_)) => outcome(Err(ServiceError::TransportClosed)),
                        Err(_) => outcome(Err(ServiceError::Timeout { timeout: Duration::from_millis(limit) })),
                    },
                    _ = give_up => match handle.cancel(Some(GIVE_UP_REASON.into())).await {
                        Ok(()) => json!({"error": {"code": null, "message": format!("Cancelled: {GIVE_UP_REASON} (RequestHandle::cancel sent notifications/cancelled)")}}),
                        Err(e) => outcome(Err(e)),
                    },
                }
            }
        },
    };
    *st.form_opened.lock().unwrap() = None;
    result
}

async fn run<R, W>(st: Arc<State>, input: R, output: W) -> Result<(), String>
where R: AsyncRead + Send + Unpin + 'static, W: AsyncWrite + Send + Unpin + 'static {
    let service = Client(st.clone()).serve((input, output)).await.map_err(|e| format!("initialize failed: {e}"))?;
    let peer = service.peer().clone();
    let info = peer.peer_info().map(|i| serde_json::to_value(&*i).unwrap_or(Value::Null)).unwrap_or(Value::Null);
    st.events.write(Kind::Note, None, None, Some(json!({"negotiatedProtocol": info["protocolVersion"], "server": info["serverInfo"]["name"], "inline": false})));
    let limit = Duration::from_millis(st.plan.call_timeout_ms);
    if st.plan.list_tools_first {
        let handle = peer.send_request_with_option(ClientRequest::ListToolsRequest(ListToolsRequest::default()), with_timeout(st.plan.call_timeout_ms)).await;
        match handle.map_err(|e| e.to_string())?.await_response().await {
            Ok(ServerResult::ListToolsResult(r)) => *st.listed.lock().unwrap() = r.tools.iter().map(|t| t.name.to_string()).collect(),
            other => return Err(format!("tools/list failed: {}", other.map(|_| "UnexpectedResponse".to_string()).unwrap_or_else(|e| classify(&e).1))),
        }
    }
    for call in &st.plan.calls {
        *st.label.lock().unwrap() = call.label.clone();
        st.events.write(Kind::CallStarted, None, None, Some(json!({"call": call.label})));
        let mut detail = json!({"call": call.label});
        detail.as_object_mut().unwrap().extend(call_tool(&st, &peer, call).await.as_object().unwrap().clone());
        st.events.write(Kind::ToolResult, None, None, Some(detail));
        if call.await_callbacks == Some(true) {
            // A call that gave up may leave its form open: the next call waits for it (bounded).
            let wait = async { loop {
                let changed = st.changed.notified();
                tokio::pin!(changed);
                changed.as_mut().enable();
                if st.running.lock().unwrap().get(&call.label).copied().unwrap_or(0) == 0 { break; }
                changed.await;
            } };
            tokio::time::timeout(limit, wait).await.map_err(|_| format!("a callback of {} still ran after callTimeoutMs", call.label))?;
        }
    }
    service.cancel().await.map_err(|e| format!("closing the session: {e}"))?;
    st.events.write(Kind::Note, None, None, Some(json!({"sessionClosed": true})));
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(if args == ["--host"] { host::serve_host() } else { host::fresh(&args) })
}
