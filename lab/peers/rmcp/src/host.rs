// One session from its arguments and its three streams (run_session), and the session-host mode
// (lab/transports/hosts.md): `rmcp-client --host` reads control lines on stdin and runs each request
// as run_session on a task of one runtime, its streams the three unix-socket connections it opens.
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::net::Shutdown;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{ClientCapabilities, Implementation, ProtocolVersion};
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::runtime::Runtime;
use tokio::sync::Notify;

use crate::{check_plan, run, ClientConfig, Events, Kind, SessionPlan, State};

/// Where a session's own stderr lines go: the process's stderr, or its third connection.
type ErrOut = Box<dyn Write + Send>;

fn runtime() -> Runtime { tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("tokio runtime") }

/// The whole driver for one session: the status the process exits with (2: bad arguments or a refused
/// plan, 1: the session failed), each failure one line on err (the lab quotes a driver's last stderr line).
async fn run_session<R, W>(args: &[String], input: R, output: W, mut err: ErrOut, ended: Arc<AtomicBool>) -> i32
where R: AsyncRead + Send + Unpin + 'static, W: AsyncWrite + Send + Unpin + 'static {
    let arg = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let (Some(plan_file), Some(events_file)) = (arg("--plan"), arg("--events")) else {
        let _ = writeln!(err, "rmcp-client: usage: rmcp-client --plan PLAN.json --events EVENTS.jsonl");
        return 2;
    };
    let plan = std::fs::read_to_string(&plan_file).map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str::<SessionPlan>(&text).map_err(|e| e.to_string()))
        .and_then(|plan| check_plan(&plan).map(|_| plan));
    let plan = match plan { Ok(p) => p, Err(e) => { let _ = writeln!(err, "rmcp-client: bad plan {plan_file}: {e}"); return 2; } };
    let capabilities: ClientCapabilities = match serde_json::from_value(Value::Object(plan.capabilities.clone())) {
        Ok(c) => c, Err(e) => { let _ = writeln!(err, "rmcp-client: bad plan {plan_file}: capabilities: {e}"); return 2; }
    };
    let file = match std::fs::File::create(&events_file) { Ok(f) => f, Err(e) => { let _ = writeln!(err, "rmcp-client: cannot write {events_file}: {e}"); return 2; } };
    // ClientConfig::new and Implementation::new from rmcp 1.0.0 (model.rs:785-794, :962-973); 0.17.0 has neither
    // (its structs are not non_exhaustive: model.rs:748-758, :845-856): --features pre_1_0 spells the same fields out.
    #[cfg(not(feature = "pre_1_0"))]
    let mut info = ClientConfig::new(capabilities, Implementation::new("reentrancy-lab-client-rmcp", "0.1.0"));
    #[cfg(feature = "pre_1_0")]
    let mut info = ClientConfig {
        meta: None, protocol_version: ProtocolVersion::default(), capabilities,
        client_info: Implementation { name: "reentrancy-lab-client-rmcp".into(), title: None, version: "0.1.0".into(), description: None, icons: None, website_url: None },
    };
    // The newest version the release knows: 2025-11-25 from rmcp 1.5.0 (model.rs:155), 2025-06-18 before (1.4.0
    // model.rs:155-158, 0.17.0 :153-156): --features pre_1_5 (lab/peers/rmcp/history.ts rmcpFeatures).
    #[cfg(not(feature = "pre_1_5"))]
    { info.protocol_version = ProtocolVersion::V_2025_11_25; }
    #[cfg(feature = "pre_1_5")]
    { info.protocol_version = ProtocolVersion::V_2025_06_18; }
    let st = Arc::new(State {
        plan, events: Events { file: Mutex::new(file), ended }, info, listed: Mutex::default(), label: Mutex::default(), callbacks: Mutex::new(0),
        running: Mutex::default(), changed: Notify::new(), form_opened: Mutex::default(),
    });
    match run(st.clone(), input, output).await {
        Ok(()) => 0,
        Err(e) => {
            st.events.write(Kind::Note, None, None, Some(json!({"sessionError": {"code": null, "message": e, "type": "rmcp"}})));
            let _ = writeln!(err, "rmcp-client: session failed: {e}");
            1
        }
    }
}

/// The driver as a fresh process: one session on its own stdin, stdout and stderr.
pub(crate) fn fresh(args: &[String]) -> i32 {
    let runtime = runtime();
    let code = runtime.block_on(run_session(args, tokio::io::stdin(), tokio::io::stdout(), Box::new(std::io::stderr()), Arc::default()));
    // tokio's stdin reader is a blocking thread that waits for EOF: do not wait for it on the way out.
    runtime.shutdown_background();
    code
}

/// A running session: its task, a second handle on each of its connections (to end them at once), and
/// the flag that stops its events.
struct Hosted { abort: tokio::task::AbortHandle, conns: [UnixStream; 3], ended: Arc<AtomicBool> }

struct Host { out: Mutex<std::io::Stdout>, sessions: Mutex<HashMap<i64, Hosted>> }

impl Host {
    /// Every reply goes through here, one line at a time: nothing else writes to stdout.
    fn reply(&self, v: Value) {
        let mut out = self.out.lock().unwrap();
        let _ = writeln!(out, "{v}").and_then(|_| out.flush());
    }

    /// Takes session id out of the table (false: it had already ended), stops its events, its task and
    /// its connections: whoever ends a session first replies for it.
    fn end(&self, id: i64) -> bool {
        let Some(s) = self.sessions.lock().unwrap().remove(&id) else { return false };
        s.ended.store(true, Ordering::SeqCst);
        s.abort.abort();
        for c in &s.conns { let _ = c.shutdown(Shutdown::Both); }
        true
    }

    fn start(self: &Arc<Self>, rt: &Runtime, id: i64, argv: Vec<String>, socket: &str) -> Result<(), String> {
        if self.sessions.lock().unwrap().contains_key(&id) { return Err(format!("session {id} is running")); }
        // the three connections in the protocol's order, each with its first line
        let mut conns = Vec::new();
        for role in ["stdin", "stdout", "stderr"] {
            let mut c = UnixStream::connect(socket).map_err(|e| format!("{role} connection: {e}"))?;
            c.write_all(format!("{id} {role}\n").as_bytes()).map_err(|e| format!("{role} connection: {e}"))?;
            conns.push(c);
        }
        let clones = [conns[0].try_clone(), conns[1].try_clone(), conns[2].try_clone()];
        let clones = match clones { [Ok(a), Ok(b), Ok(c)] => [a, b, c], _ => return Err("could not hold its connections".into()) };
        let [input, output, err]: [UnixStream; 3] = conns.try_into().expect("three connections");
        let _entered = rt.enter(); // from_std registers with this runtime
        let tokio_side = |s: UnixStream| s.set_nonblocking(true).and_then(|_| tokio::net::UnixStream::from_std(s));
        let (input, output) = match (tokio_side(input), tokio_side(output)) { (Ok(i), Ok(o)) => (i, o), _ => return Err("could not use its connections".into()) };
        self.reply(json!({"id": id, "pid": std::process::id(), "hosted": true}));
        let ended = Arc::new(AtomicBool::new(false));
        // the table holds the session before its task can end it
        let mut sessions = self.sessions.lock().unwrap();
        let session = rt.spawn(run_session_owned(argv, input, output, Box::new(err), ended.clone()));
        sessions.insert(id, Hosted { abort: session.abort_handle(), conns: clones, ended });
        let host = self.clone();
        rt.spawn(async move {
            let code = match session.await {
                Ok(code) => code,
                Err(e) if e.is_cancelled() => return, // killed: end has replied
                Err(_) => 101, // a panic ends this session as it would have ended the process
            };
            if host.end(id) { host.reply(json!({"id": id, "exit": code, "signal": null})); }
        });
        Ok(())
    }
}

async fn run_session_owned(argv: Vec<String>, input: tokio::net::UnixStream, output: tokio::net::UnixStream, err: ErrOut, ended: Arc<AtomicBool>) -> i32 {
    run_session(&argv, input, output, err, ended).await
}

/// The host: control requests from stdin until it ends, then every session left is ended; exit 0.
pub(crate) fn serve_host() -> i32 {
    let rt = runtime();
    let host = Arc::new(Host { out: Mutex::new(std::io::stdout()), sessions: Mutex::default() });
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let req: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
        let Some(id) = req["id"].as_i64() else { eprintln!("rmcp-client host: not a request: {:.200}", line); continue };
        let argv: Option<Vec<String>> = req["argv"].as_array().and_then(|a| a.iter().map(|v| v.as_str().map(String::from)).collect());
        match (req["kill"].as_str(), argv, req["socket"].as_str()) {
            (Some(signal @ ("SIGTERM" | "SIGKILL")), _, _) => if host.end(id) { host.reply(json!({"id": id, "exit": null, "signal": signal})) },
            (Some(other), _, _) => eprintln!("rmcp-client host: kill {id}: unknown signal {other:?}"),
            (None, Some(argv), Some(socket)) => if let Err(e) = host.start(&rt, id, argv, socket) { host.reply(json!({"id": id, "error": e})) },
            _ => host.reply(json!({"id": id, "error": "a request needs argv (strings) and socket"})),
        }
    }
    let ids: Vec<i64> = host.sessions.lock().unwrap().keys().copied().collect();
    for id in ids { host.end(id); }
    rt.shutdown_background();
    0
}
