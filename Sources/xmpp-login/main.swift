import XMPPTools

LoginTool.main()
