// XMPPServices module.
