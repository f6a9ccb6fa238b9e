#ifndef XMPP_TOOLS_CPNGSTREAM_H
#define XMPP_TOOLS_CPNGSTREAM_H
// The libpng row loop lives in C so no longjmp ever crosses a Swift frame.
#endif
