#ifndef XMPP_TOOLS_CLIBJPEG_SHIM_H
#define XMPP_TOOLS_CLIBJPEG_SHIM_H
// libjpeg-turbo; jpeglib.h needs stdio.h (FILE) and size_t first.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
#endif
