"""A warm interpreter for one venv: it imports what the lab's Python programs import, once, then
forks a fresh process per program run, so a session does not pay the interpreter's start and the
SDK's import again (lab/transports/forked.ts is the other end).

Control, one JSON object per line: requests on fd 0, replies on fd 1, read and written raw (never
through sys.stdin/sys.stdout, whose buffers every forked child inherits).
  request: {"id": n, "argv": [script, arg...], "socket": path}   (the environment is the host's)
  reply:   {"id": n, "pid": p}  then, when it ends,  {"id": n, "exit": code, "signal": name|null}
           {"id": n, "error": text}  when it could not fork
Before forking, the host connects to `socket` three times ("<id> stdin", "<id> stdout", "<id> stderr",
one line each); the child puts those connections on fds 0, 1 and 2, and runs the script as `python script ...` would:
__main__, sys.argv, the script's folder first on sys.path. It ends with the script's exit status.
The host ends when its control input ends; it never outlives the lab that started it.

It also learns: a run writes, as it ends, the names of the library modules (the venv's and the
standard library's, never the lab's own) it imported after the fork (FastMCP imports much of itself
lazily, on the first request), and the host imports them before its next fork, so only the first run
of a program pays for them. A library module is imported once per process either way; the run sees
it already imported, as the SDK's own eager imports.
"""
import ast
import gc
import importlib
import json
import os
import runpy
import select
import shutil
import signal
import socket
import sys
import tempfile
import threading

children: dict[int, int] = {}  # pid -> request id
preloaded: set[str] = set()
# <child pid>.txt: what that run imported; the folder is the lab's to remove (it stops a host by SIGKILL)
LEARNED = os.environ.get("LAB_HOST_SCRATCH") or tempfile.mkdtemp(prefix="lab-host-learned-")
os.makedirs(LEARNED, exist_ok=True)
LIBRARY = tuple(os.path.join(os.path.realpath(p), "") for p in {sys.prefix, sys.base_prefix})


def send(reply: dict) -> None:
    data = (json.dumps(reply) + "\n").encode()
    while data:
        data = data[os.write(1, data):]


def imports_of(path: str) -> set[str]:
    try:
        tree = ast.parse(open(path, encoding="utf8").read())
    except (OSError, SyntaxError):
        return set()
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def preload(script: str) -> None:
    """Imports, in this process, what the script and its sibling modules import from outside its
    folder: the SDK and its dependencies. The script's own modules are left to each run."""
    folder = os.path.dirname(os.path.abspath(script))
    todo, seen = [os.path.abspath(script)], set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in imports_of(path):
            local = os.path.join(folder, name.split(".")[0] + ".py")
            if os.path.exists(local):
                todo.append(local)
            elif name not in preloaded:
                preloaded.add(name)
                try:
                    importlib.import_module(name)
                except Exception:
                    pass  # the run itself will meet (and report) the same failure
    # a thread here would not survive into a child, and a lock it held would stay held there
    if threading.active_count() > 1:
        raise RuntimeError(f"importing {script}'s modules started {threading.active_count() - 1} thread(s): forking is unsafe")


def library_modules(names: list[str]) -> list[str]:
    """Of `names` (in import order), the modules loaded from the venv or the standard library."""
    kept = []
    for name in names:
        module = sys.modules.get(name)
        path = getattr(module, "__file__", None) if module is not None else None
        if name != "__main__" and path and os.path.realpath(path).startswith(LIBRARY):
            kept.append(name)
    return kept


def learn(pid: int) -> None:
    """Imports what run `pid` imported after its fork (written as it ended), for the next fork."""
    path = os.path.join(LEARNED, f"{pid}.txt")
    try:
        with open(path, encoding="utf8") as f:
            names = f.read().split()
        os.remove(path)
    except OSError:
        return
    for name in names:
        if name not in sys.modules:
            try:
                importlib.import_module(name)
            except Exception:
                pass
    if threading.active_count() > 1:
        # a later fork would copy a lock such a thread might hold: stop rather than risk a hung run
        print(f"host: importing what run {pid} imported started a thread: forking is unsafe", file=sys.stderr)
        os._exit(3)


def connect(path: str, name: str) -> socket.socket:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall(f"{name}\n".encode())
    return s


def child(request: dict, streams: list[socket.socket], control: list[int]) -> None:
    """In the forked child: never returns."""
    code = 1
    try:
        # the control fds 0 and 1 are replaced here (dup2); the wake-up pipe is the host's own
        for fd, s in zip((0, 1, 2), streams):
            os.dup2(s.fileno(), fd)
            s.close()
        for fd in control:
            os.close(fd)
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        script = request["argv"][0]
        sys.argv = list(request["argv"])
        sys.path[0] = os.path.dirname(os.path.abspath(script))
        before = set(sys.modules)
        try:
            runpy.run_path(script, run_name="__main__")
        finally:
            new = [name for name in list(sys.modules) if name not in before]
            try:
                with open(os.path.join(LEARNED, f"{os.getpid()}.txt"), "w", encoding="utf8") as f:
                    f.write("\n".join(library_modules(new)))
            except OSError:
                pass
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
        if not isinstance(exit_.code, (int, type(None))):
            print(exit_.code, file=sys.stderr)
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            pass
        os._exit(code)


def reap() -> None:
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        ident = children.pop(pid, None)
        if ident is None:
            continue
        if os.WIFSIGNALED(status):
            send({"id": ident, "exit": None, "signal": signal.Signals(os.WTERMSIG(status)).name})
        else:
            send({"id": ident, "exit": os.waitstatus_to_exitcode(status), "signal": None})
        learn(pid)  # after the reply: the run's end is not held up by the next one's imports


def main() -> None:
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    buffer = b""
    while True:
        ready, _, _ = select.select([0, wake_r], [], [])
        if wake_r in ready:
            os.read(wake_r, 512)
            reap()
        if 0 not in ready:
            continue
        chunk = os.read(0, 65536)
        if not chunk:
            shutil.rmtree(LEARNED, ignore_errors=True)
            return  # the lab is gone; its runs end with their sockets
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            if not line.strip():
                continue
            request = json.loads(line)
            streams: list[socket.socket] = []
            try:
                preload(request["argv"][0])
                # connected before the fork, so the lab is sure to see all three, whenever the run ends
                streams = [connect(request["socket"], f"{request['id']} {name}") for name in ("stdin", "stdout", "stderr")]
                sys.stdout.flush()
                sys.stderr.flush()
                # what the host imported stays out of the child's collections: a collection would
                # touch, and so copy, every page of the warm heap (the gc.freeze documentation's advice)
                gc.freeze()
                pid = os.fork()
            except Exception as error:
                for s in streams:
                    s.close()
                send({"id": request["id"], "error": f"{type(error).__name__}: {error}"})
                continue
            if pid == 0:
                child(request, streams, [wake_r, wake_w])
            for s in streams:
                s.close()
            children[pid] = request["id"]
            send({"id": request["id"], "pid": pid})
        reap()


if __name__ == "__main__":
    main()
