import XMPPTools

RegisterTool.main()
