import XMPPTools

MultiCall.main()
