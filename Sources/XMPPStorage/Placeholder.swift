// XMPPStorage module.
