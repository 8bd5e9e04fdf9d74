// The driver's sampling and roots callbacks (ClientHandler::create_message, ::list_roots), through one
// plain_turn as every driver does (lab/peers/py/sampling.py, lab/peers/perform.ts plainCallback): enter,
// think for the call's planned time, send the planned nested request through the driver's own nested path
// (send_nested records nested.sent/ok/failed), leave, each recorded where it happens. A failed nested
// request changes nothing else. The answer is the SDK's own result type built from the lab's synthetic
// words (lab/plan/behaviour.ts SYNTHETIC_COMPLETION, SYNTHETIC_ROOTS): no model is called.
// Sampling and roots are SEP-2577-deprecated in rmcp 3.11.0 (model.rs:2872-2875, :3849-3852): still public API.
#![allow(deprecated)]
use rmcp::model::{CreateMessageResult, ErrorData, ListRootsResult, SamplingMessage};
#[cfg(not(feature = "pre_1_2"))]
use rmcp::model::Root;
use rmcp::service::{RequestContext, RoleClient};
use serde_json::{json, Value};

use crate::{send_nested, CallData, Kind, Running, State, Turn};

/// lab/plan/behaviour.ts SYNTHETIC_COMPLETION, word for word (role assistant, text content).
const SYNTHETIC_TEXT: &str = "synthetic completion (no model was called)";
const SYNTHETIC_MODEL: &str = "lab-synthetic";
/// lab/plan/behaviour.ts SYNTHETIC_ROOTS: (uri, name).
const SYNTHETIC_ROOTS: [(&str, &str); 2] = [("file:///synthetic/lab-root-a", "lab-root-a"), ("file:///synthetic/lab-root-b", "lab-root-b")];

/// One sampling or roots callback's turn. Err(word) when the call plans none: callback.left carries the
/// error and the caller answers an error, as client.py does ("no sampling planned for this call").
async fn plain_turn(st: &State, context: &RequestContext<RoleClient>, method: &'static str, plan: fn(&CallData) -> Option<&Turn>, word: &str) -> Result<(), ErrorData> {
    let n = { let mut c = st.callbacks.lock().unwrap(); *c += 1; *c };
    let call = st.label.lock().unwrap().clone();
    let id = serde_json::to_value(&context.id).ok();
    let where_ = json!({"n": n, "call": call});
    let with = |extra: Value| { let mut d = where_.clone(); d.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone()); Some(d) };
    st.events.write(Kind::CallbackEntered, id.clone(), Some(method), Some(where_.clone()));
    *st.running.lock().unwrap().entry(call.clone()).or_default() += 1;
    let _running = Running(st, call.clone());
    let Some(turn) = st.plan.calls.iter().find(|c| c.label == call).and_then(plan).cloned() else {
        st.events.write(Kind::CallbackLeft, id, Some(method), with(json!({"error": format!("ErrorData: no {method} callback planned")})));
        return Err(ErrorData::invalid_request(format!("no {word} planned for this call"), None));
    };
    if turn.delay_ms > 0 { tokio::time::sleep(std::time::Duration::from_millis(turn.delay_ms)).await; } // the plan's think time
    if let Some(nested) = &turn.nested { send_nested(st, &context.peer, nested).await; }
    st.events.write(Kind::CallbackLeft, id, Some(method), with(json!({"action": "accept"})));
    Ok(())
}

/// sampling/createMessage: the lab's synthetic completion (CreateMessageResult, model.rs:4516-4525).
pub(crate) async fn create_message(st: &State, context: RequestContext<RoleClient>) -> Result<CreateMessageResult, ErrorData> {
    plain_turn(st, &context, "sampling/createMessage", |c| c.sampling.as_ref(), "sampling").await?;
    // CreateMessageResult::new from rmcp 1.0.0 (model.rs:2871-2879); 0.17.0 builds the struct itself (model.rs:2389-2398)
    #[cfg(not(feature = "pre_1_0"))]
    return Ok(CreateMessageResult::new(SamplingMessage::assistant_text(SYNTHETIC_TEXT), SYNTHETIC_MODEL.into())
        .with_stop_reason(CreateMessageResult::STOP_REASON_END_TURN));
    #[cfg(feature = "pre_1_0")]
    return Ok(CreateMessageResult {
        model: SYNTHETIC_MODEL.into(), stop_reason: Some(CreateMessageResult::STOP_REASON_END_TURN.into()), message: SamplingMessage::assistant_text(SYNTHETIC_TEXT),
    });
}

/// roots/list: the lab's two synthetic roots (ListRootsResult, Root, model.rs:3853-3916).
pub(crate) async fn list_roots(st: &State, context: RequestContext<RoleClient>) -> Result<ListRootsResult, ErrorData> {
    plain_turn(st, &context, "roots/list", |c| c.roots.as_ref(), "roots").await?;
    // ListRootsResult::new and Root::new from rmcp 1.2.0 (model.rs:2407, :2434-2436); 1.0.0-1.1.1 have neither, and
    // their Root is non_exhaustive (1.0.0 model.rs:2372-2379): --features pre_1_2 reads the same answer from its wire form
    #[cfg(not(feature = "pre_1_2"))]
    return Ok(ListRootsResult::new(SYNTHETIC_ROOTS.iter().map(|(uri, name)| Root::new(*uri).with_name(*name)).collect()));
    #[cfg(feature = "pre_1_2")]
    return serde_json::from_value(json!({"roots": SYNTHETIC_ROOTS.iter().map(|(uri, name)| json!({"uri": uri, "name": name})).collect::<Vec<_>>()}))
        .map_err(|e| ErrorData::internal_error(format!("roots: {e}"), None));
}
