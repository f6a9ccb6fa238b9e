import XMPPTools

AdHocTool.main()
