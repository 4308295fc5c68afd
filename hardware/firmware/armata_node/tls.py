"""TLS for a node's MQTT connection (ESP32 on Wi-Fi): trust only the CA that
`python -m hardware.mosquitto.provision --tls` made (`tls/ca.der`: MicroPython reads DER,
not PEM), and check the broker's name against it."""


def context(ssl, ca_der):
    """An SSL context for umqtt.simple's `ssl=` argument; `ssl` is MicroPython's module."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.verify_mode = ssl.CERT_REQUIRED
    ctx.load_verify_locations(cadata=ca_der)
    return ctx


def load(ssl, path):
    with open(path, "rb") as stream:
        return context(ssl, stream.read())
