#ifndef XMPP_TOOLS_CLIBPNG_SHIM_H
#define XMPP_TOOLS_CLIBPNG_SHIM_H
#include <png.h>
#endif
