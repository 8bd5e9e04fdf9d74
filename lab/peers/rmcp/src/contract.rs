// The driver contract: the SessionPlan as read from JSON (strict), its bounds, what a form callback
// decides, and the one writer of driver events (lab/plan/driver-events.ts). Included into main.rs (one
// module) of both Rust drivers (rmcp, rust-mcp-sdk): nothing of either SDK is in it.
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SessionPlan { scenario: String, capabilities: Map<String, Value>, list_tools_first: bool, calls: Vec<CallData>, call_timeout_ms: u64 }
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CallData {
    label: String,
    #[serde(default = "calculate")] tool: String,
    #[serde(default)] args: Map<String, Value>,
    callback: Option<Behaviour>, give_up_after_ms: Option<u64>, await_callbacks: Option<bool>,
    sampling: Option<Turn>, roots: Option<Turn>,
}
fn calculate() -> String { "calculate".into() }
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Behaviour { delay_ms: Option<u64>, nested: Option<Nested>, need_tool: Option<String>, answer: AnswerData, otherwise: Option<AnswerData>, watch_abort: Option<bool> }
/// SamplingBehaviour (= RootsBehaviour): what a sampling or roots callback does (sampling.rs plain_turn).
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Turn { delay_ms: u64, nested: Option<Nested> }
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Nested { method: NestedMethod, timeout_ms: u64 }
#[derive(Deserialize, Clone, Copy, PartialEq)]
enum NestedMethod { #[serde(rename = "tools/list")] ToolsList, #[serde(rename = "ping")] Ping }
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct AnswerData { action: Action, content: Option<Map<String, Value>> }
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Action { Accept, Decline, Cancel }

/// What a form callback answers (lab/plan/behaviour.ts): the plan's think time, its nested request through
/// `nest` (None: it failed, and the callback answers `otherwise`), then `answer` unless it needs a tool
/// that neither `listed` nor the nested tools/list names.
async fn decide<F: std::future::Future<Output = Option<HashSet<String>>>>(b: &Behaviour, listed: HashSet<String>, nest: impl FnOnce(Nested) -> F) -> AnswerData {
    let otherwise = b.otherwise.clone().unwrap_or(AnswerData { action: Action::Cancel, content: None });
    if let Some(ms) = b.delay_ms.filter(|ms| *ms > 0) { tokio::time::sleep(Duration::from_millis(ms)).await; }
    let mut known = listed;
    if let Some(nested) = &b.nested {
        match nest(nested.clone()).await {
            None => return otherwise,
            Some(names) => if nested.method == NestedMethod::ToolsList { known = names },
        }
    }
    match &b.need_tool { Some(tool) if !known.contains(tool) => otherwise, _ => b.answer.clone() }
}

/// The zod bounds serde cannot say (behaviour.ts): one line naming the first field that breaks one.
fn check_plan(p: &SessionPlan) -> Result<(), String> {
    let within = |v: Option<u64>, lo: u64, hi: u64, what: &str| match v { Some(v) if v < lo || v > hi => Err(format!("{what}: {v} is outside {lo}..{hi}")), _ => Ok(()) };
    if p.scenario.is_empty() { return Err("scenario: empty".into()); }
    if p.calls.is_empty() { return Err("calls: at least one call".into()); }
    within(Some(p.call_timeout_ms), 1, u64::MAX, "callTimeoutMs")?;
    for (i, c) in p.calls.iter().enumerate() {
        if c.label.is_empty() { return Err(format!("calls.{i}.label: empty")); }
        within(c.give_up_after_ms, 1, 60_000, &format!("calls.{i}.giveUpAfterMs"))?;
        if let Some(b) = &c.callback {
            within(b.delay_ms, 0, 10_000, &format!("calls.{i}.callback.delayMs"))?;
            within(b.nested.as_ref().map(|n| n.timeout_ms), 1, 60_000, &format!("calls.{i}.callback.nested.timeoutMs"))?;
        }
        for (name, turn) in [("sampling", &c.sampling), ("roots", &c.roots)] {
            let Some(t) = turn else { continue };
            within(Some(t.delay_ms), 0, 10_000, &format!("calls.{i}.{name}.delayMs"))?;
            within(t.nested.as_ref().map(|n| n.timeout_ms), 1, 60_000, &format!("calls.{i}.{name}.nested.timeoutMs"))?;
        }
    }
    Ok(())
}

/// The only words this driver writes: lab/plan/driver-events.ts DriverEvent.kind.
#[derive(Clone, Copy)]
enum Kind { CallStarted, CallbackEntered, CallbackLeft, CallbackAborted, NestedSent, NestedOk, NestedFailed, ToolResult, Note }
impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::CallStarted => "call.started", Kind::CallbackEntered => "callback.entered", Kind::CallbackLeft => "callback.left",
            Kind::CallbackAborted => "callback.aborted", Kind::NestedSent => "nested.sent", Kind::NestedOk => "nested.ok",
            Kind::NestedFailed => "nested.failed", Kind::ToolResult => "tool.result", Kind::Note => "note",
        }
    }
}

fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime only writes the timespec it is given; CLOCK_MONOTONIC always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// One JSON object per line, flushed; t_ns is read as the line is written, right when the thing happens.
/// Once `ended` (a host killed the session) nothing more is written, as a killed process writes nothing.
struct Events { file: Mutex<std::fs::File>, ended: Arc<std::sync::atomic::AtomicBool> }
impl Events {
    fn write(&self, kind: Kind, id: Option<Value>, method: Option<&str>, detail: Option<Value>) {
        let mut file = self.file.lock().unwrap();
        if self.ended.load(std::sync::atomic::Ordering::SeqCst) { return; }
        let mut event = Map::new();
        event.insert("t_ns".into(), json!(monotonic_ns()));
        event.insert("kind".into(), json!(kind.word()));
        if let Some(id) = id { event.insert("id".into(), id); }
        if let Some(m) = method { event.insert("method".into(), json!(m)); }
        if let Some(d) = detail { event.insert("detail".into(), d); }
        let _ = writeln!(file, "{}", Value::Object(event)).and_then(|_| file.flush());
    }
}
