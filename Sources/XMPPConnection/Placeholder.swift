// XMPPConnection module.
