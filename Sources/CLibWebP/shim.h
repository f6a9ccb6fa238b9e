#ifndef XMPP_TOOLS_CLIBWEBP_SHIM_H
#define XMPP_TOOLS_CLIBWEBP_SHIM_H
/* libwebp: avatar inputs in WebP, as phones and browsers hand them out (decoded by CPNGStream);
   the encoder for the tests' inputs. */
#include <webp/decode.h>
#include <webp/encode.h>
#endif
