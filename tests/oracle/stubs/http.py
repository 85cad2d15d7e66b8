"""The oracle's HTTP stub (tests/oracle/stubs/start.sh): on
127.0.0.1:8080, GET and HEAD of the files of /srv/origin.git (git's dumb
HTTP protocol: `info/refs`, `objects/…`) and of `/`; 404 for anything
else. One request per connection (HTTP/1.0, `Connection: close`), one at
a time: enough for git and curl, and small enough to start in the
sandbox before every command."""
import os
import socket

ROOT = "/srv/origin.git"


def answer(request):
    words = request.split(b"\r\n", 1)[0].decode("latin-1").split()
    method, path = (words + ["", ""])[:2]
    path = path.split("?", 1)[0]
    full = os.path.normpath("/srv" + path)
    status, body = "404 Not Found", b"not found\n"
    if method not in ("GET", "HEAD"):
        status, body = "405 Method Not Allowed", b""
    elif path == "/":
        status, body = "200 OK", b"permc oracle stub\n"
    elif (full == ROOT or full.startswith(ROOT + "/")) and os.path.isfile(full):
        with open(full, "rb") as f:
            status, body = "200 OK", f.read()
    head = f"HTTP/1.0 {status}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    return head.encode() + (body if method != "HEAD" else b"")


def main():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 8080))
    s.listen(16)
    while True:
        c, _ = s.accept()
        try:
            c.settimeout(5)
            data = b""
            while b"\r\n\r\n" not in data and len(data) < 65536:
                chunk = c.recv(4096)
                if not chunk:
                    break
                data += chunk
            c.sendall(answer(data))
        except OSError:
            pass
        finally:
            c.close()


main()
