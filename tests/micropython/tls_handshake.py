# Under the MicroPython Unix port: the firmware's TLS context against a real broker.
# One JSON case per line: {"port": N, "ca": "path", "host": "localhost"} -> {"ok": true} or
# {"error": "..."}
import json
import socket
import ssl
import sys

from armata_node import tls

for line in sys.stdin:
    case = json.loads(line)
    sock = socket.socket()
    try:
        sock.connect(socket.getaddrinfo("127.0.0.1", case["port"])[0][-1])
        ctx = tls.load(ssl, case["ca"])
        secure = ctx.wrap_socket(sock, server_hostname=case["host"])
        secure.write(b"\x10\x00")  # the handshake is done; a broken CONNECT ends it politely
        secure.close()
        print(json.dumps({"ok": True}))
    except Exception as exc:  # the test reads what MicroPython raised
        print(json.dumps({"error": "%s %s" % (type(exc).__name__, exc)}))
        sock.close()
