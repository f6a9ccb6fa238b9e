#!/usr/bin/env python3
"""A TCP relay in front of one server, standing in for one node of a cluster in the
end-to-end tests: listens on 127.0.0.1, forwards every connection to TARGET_HOST:TARGET_PORT.

  tcp-relay.py PORT_FILE TARGET_HOST TARGET_PORT
  tcp-relay.py PORT_FILE --blackhole

Writes the port it listens on to PORT_FILE once it accepts connections. On stderr: one line
per accepted connection ("accepted N") and one per 8 KiB sent from the server to the clients
("downstream BYTES"), so a test can SIGKILL it mid-batch (a node that dies: every stream drops
at once, new connects are refused).

With --blackhole it forwards nothing: it listens with a backlog of 0 and fills it with one
connection of its own that is never accepted, so the kernel drops every further SYN (an
address that never answers; measured: 10.255.255.1 is answered in the test sandbox)."""
import os
import selectors
import signal
import socket
import sys


def write_port(port_file, port):
    tmp = port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(port))
    os.rename(tmp, port_file)


def blackhole(port_file):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    filler = socket.create_connection(listener.getsockname())
    write_port(port_file, listener.getsockname()[1])
    signal.pause()
    filler.close()


def main():
    args = sys.argv[1:]
    if args[1:] == ["--blackhole"]:
        blackhole(args[0])
        return
    port_file, target_host, target_port = args[0], args[1], int(args[2])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    listener.setblocking(False)
    write_port(port_file, listener.getsockname()[1])

    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ, None)
    peers = {}
    accepted = 0
    downstream = 0

    def close_pair(sock):
        other = peers.pop(sock, None)
        for s in (sock, other):
            if s is None:
                continue
            peers.pop(s, None)
            try:
                sel.unregister(s)
            except (KeyError, ValueError):
                pass
            s.close()

    while True:
        for key, _ in sel.select():
            sock = key.fileobj
            if sock is listener:
                try:
                    client, _ = listener.accept()
                except BlockingIOError:
                    continue
                try:
                    server = socket.create_connection((target_host, target_port), timeout=5)
                except OSError:
                    client.close()
                    continue
                for s in (client, server):
                    s.setblocking(True)
                    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                peers[client] = server
                peers[server] = client
                sel.register(client, selectors.EVENT_READ, "client")
                sel.register(server, selectors.EVENT_READ, "server")
                accepted += 1
                print(f"accepted {accepted}", file=sys.stderr, flush=True)
                continue
            try:
                data = sock.recv(65536)
            except OSError:
                data = b""
            if not data:
                close_pair(sock)
                continue
            other = peers.get(sock)
            if other is None:
                continue
            try:
                other.sendall(data)
            except OSError:
                close_pair(sock)
                continue
            if key.data == "server":
                before = downstream
                downstream += len(data)
                if downstream // 8192 != before // 8192:
                    print(f"downstream {downstream}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
