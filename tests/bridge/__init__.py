"""The node protocol, its transports and the node simulator."""
